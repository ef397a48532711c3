"""Guobiao mahjong (国标麻将, Chinese Official / MCR): the 81 fans, scoring and payments."""

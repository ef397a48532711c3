"""Rule sets: what differs between variants, behind one interface."""

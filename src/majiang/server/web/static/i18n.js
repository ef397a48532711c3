// Labels in English and Chinese; the choice is kept in localStorage ("majiang.lang").
// Everything the page writes goes through t(); fan and hu-item names come from the server in
// both languages and are picked with pick().

const KEY = "majiang.lang";
const listeners = new Set();
let current = localStorage.getItem(KEY) === "zh" ? "zh" : "en";

const L = {
  title: ["Mahjong", "麻将"],
  lobby: ["Lobby", "大厅"],
  language: ["中文", "English"],
  your_name: ["Your name", "你的名字"],
  create_room: ["Create a room", "开房间"],
  create: ["Create and sit", "开房并入座"],
  rules: ["Rules", "规则"],
  hands: ["Hands", "局数"],
  stake: ["Stake", "底注"],
  turn_seconds: ["Seconds per turn", "每步秒数"],
  grace_seconds: ["Seconds before a bot stands in", "掉线托管秒数"],
  bot_seconds: ["Seconds between bot moves (0: at once)", "机器人出牌间隔秒数（0：立即）"],
  next_seconds: ["Seconds between hands (to read the sheet)", "局间暂停秒数（看结算）"],
  ready_seconds: ["Seconds to say ready before the seat is freed", "入座后准备时限秒数（超时空出座位）"],
  seed: ["Seed (optional)", "随机种子（可选）"],
  seats: ["Seats", "座位"],
  seat: ["Seat", "座位"],
  person: ["Person", "真人"],
  options: ["Rule options", "规则选项"],
  join_room: ["Join a room", "加入房间"],
  room_code: ["Room code", "房间号"],
  join: ["Join", "加入"],
  watch: ["Watch", "观战"],
  open_rooms: ["Rooms", "房间列表"],
  no_rooms: ["No rooms yet.", "还没有房间。"],
  refresh: ["Refresh", "刷新"],
  status_waiting: ["waiting", "等待中"],
  status_playing: ["playing", "对局中"],
  status_finished: ["finished", "已结束"],
  status_paused: ["paused: nobody connected", "已暂停：无人在线"],
  paused_why: ["Nobody has been connected for a while, so the match waits; watching or taking your seat again resumes it.",
    "一段时间无人在线，对局暂停；观战或回到座位即继续。"],
  resumed: ["The match was paused while nobody was connected; it goes on now.", "无人在线时对局暂停了，现在继续。"],
  chosen_seed: ["chosen seed", "指定种子"],
  chosen_seed_why: ["The creator chose the seed: whoever knows it knows every wall.",
    "房主指定了随机种子：知道种子的人就知道每一副牌墙。"],
  players: ["Players", "玩家"],
  open_seats: ["Open seats", "空位"],
  replays: ["Replays", "回放"],
  room: ["Room", "房间"],
  sit_here: ["Sit here", "入座"],
  free_seat: ["Free the seat", "请离座位"],
  ready: ["Ready", "准备"],
  is_ready: ["ready", "已准备"],
  not_ready: ["not ready", "未准备"],
  empty_seat: ["empty", "空位"],
  connected: ["online", "在线"],
  away: ["away", "离线"],
  away_short: ["away · bot plays", "离线 · 托管"],
  away_bot: ["The player is away: a bot plays the seat until they are back",
    "玩家离线：回来之前由机器人代打"],
  you: ["you", "你"],
  spectating: ["Watching", "观战中"],
  waiting_players: ["Waiting for every seated player to be ready; empty seats get bots.",
    "等待入座玩家准备；空位由机器人补上。"],
  need_name: ["Enter your name first.", "请先输入名字。"],
  hand_n: ["Hand {0}", "第{0}局"],
  hand_of: ["Hand {0} of {1}", "第{0}局 / 共{1}局"],
  round_wind: ["{0} round", "{0}风圈"],
  round_short: ["round", "圈"],
  white_plays_as: ["白 plays as {0} (the wild face)", "白板当 {0} 用（得的本面）"],
  wall: ["Wall", "牌墙"],
  drawable: ["to draw", "可摸"],
  dealer: ["Dealer", "庄家"],
  dealer_mark: ["D", "庄"],
  dealer_count: ["Dealer count {0}", "连庄 {0}"],
  indicator: ["Indicator", "翻牌"],
  wild: ["Wild 得", "得"],
  raw_phase: ["Raw-tile phase: a raw discard may make you the gunner",
    "生牌阶段：打生牌可能点炮"],
  thrown: ["thrown {0}", "抛弹 {0}"],
  score: ["Score", "分数"],
  bullets: ["Bullets", "子弹"],
  your_turn: ["Your turn: discard a tile", "轮到你：请打一张牌"],
  claim_on: ["{0} discarded", "{0} 打出"],
  rob_on: ["{0} adds to a kong", "{0} 加杠"],
  bullets_phase: ["Bullets before the deal", "开局抛弹"],
  bullets_throw_explained: ["You deal: throw bullets (抛弹), a side stake on this hand the others may accept — press the number to throw (0: none)",
    "你坐庄：抛弹（本局的附加赌注，其他人可接）——按要抛的数目（0：不抛）"],
  bullets_accept_explained: ["The dealer threw bullets (抛弹), a side stake on this hand: accept (接弹) or decline",
    "庄家抛弹（本局的附加赌注）：接弹还是不接"],
  throw_n: ["Throw {0}", "抛 {0}"],
  accept: ["Accept", "接弹"],
  decline: ["Decline", "不接"],
  discard: ["Discard", "打牌"],
  chow: ["Chow", "吃"],
  pung: ["Pung", "碰"],
  exposed_kong: ["Kong", "明杠"],
  concealed_kong: ["Concealed kong", "暗杠"],
  added_kong: ["Add kong", "加杠"],
  win: ["Win", "和"],
  false_win: ["Win (under 8 fans: false win!)", "和（不足8番：错和！）"],
  pass: ["Pass", "过"],
  auto_pass: ["Auto-pass", "自动过"],
  settings: ["Settings", "设置"],
  fan_definition: ["Definition of the fan", "番种定义"],
  fan_highlight: ["Point at a fan (or tap it) to light its tiles in the winning hand", "指向（或点按）番种，点亮和牌中的对应牌"],
  danger_safe: ["Safe", "安全"],
  danger_low: ["Low danger", "低危险"],
  danger_medium: ["Some danger", "中危险"],
  danger_high: ["Dangerous", "高危险"],
  raw_tile: ["raw (生牌): no copy in any pond", "生牌：牌河里没有这张"],
  safety: ["Safety", "安全度"],
  call_chow: ["吃 Chow", "吃"],
  call_pung: ["碰 Pung", "碰"],
  call_exposed_kong: ["杠 Kong", "杠"],
  call_concealed_kong: ["杠 Kong", "暗杠"],
  call_added_kong: ["杠 Kong", "加杠"],
  call_win: ["和 Win", "和"],
  call_false_win: ["错和 False win", "错和"],
  set_faces: ["Tile faces", "牌面"],
  set_faces_pictures: ["Pictures", "图案"],
  set_faces_text: ["Text", "文字"],
  set_labels: ["Labels", "标注"],
  set_labels_code: ["Notation (5p)", "记号（5p）"],
  set_labels_name: ["Names", "名称"],
  set_labels_none: ["None", "无"],
  set_sound: ["Sounds", "音效"],
  set_auto_win: ["Auto-win when a win is legal", "能和就自动和"],
  set_no_calls: ["No calls (pass every claim but a win)", "不吃不碰（只和）"],
  set_auto_discard: ["Auto-discard the drawn tile", "自动摸切"],
  set_auto_pass: ["Auto-pass when passing is all", "只能过时自动过"],
  hints: ["Hints", "提示"],
  seconds: ["{0} s", "{0} 秒"],
  waiting_others: ["Waiting for the others…", "等待其他玩家…"],
  reconnecting: ["Connection lost: reconnecting…", "连接断开：正在重连…"],
  no_room: ["No room {0}.", "没有房间 {0}。"],
  shanten: ["{0}-shanten", "{0} 向听"],
  tenpai: ["Ready (waiting)", "听牌"],
  complete: ["Complete hand", "已和牌型"],
  best_discards: ["Best discards", "推荐打法"],
  useful: ["Useful tiles", "有效牌"],
  waits: ["Waits", "听牌"],
  unseen: ["unseen", "未见"],
  useful_unseen: ["{0} useful tiles unseen", "有效牌 {0} 张未见"],
  reaches_8: ["reaches 8 fans", "够8番"],
  under_8: ["under 8 fans", "不够8番"],
  no_hints: ["No hints now.", "暂无提示。"],
  close: ["Close", "关闭"],
  // score sheet
  score_sheet: ["Score sheet", "结算"],
  wins_self: ["{0} wins, self-drawn, on {1}", "{0} 自摸 {1}"],
  wins_from: ["{0} wins on {1} from {2}", "{0} 和 {1}（{2} 打出）"],
  draw: ["Exhaustive draw: no payments", "荒牌流局：不计分"],
  fan: ["Fan", "番种"],
  points: ["Points", "番数"],
  count: ["Count", "次数"],
  total: ["Total", "合计"],
  flowers: ["Flowers", "花牌"],
  meets_minimum: ["Meets the 8-fan minimum", "满足8番起和"],
  payments: ["Payments", "收付"],
  per_seat: ["Each seat", "各家得失"],
  this_hand: ["This hand", "本局"],
  running: ["Running total", "累计"],
  next_hand: ["Next hand", "下一局"],
  next_in: ["Next hand in {0} s", "{0} 秒后开下一局"],
  waiting_for_next: ["waiting for {0}", "等待 {0}"],
  standings: ["Standings", "总成绩"],
  match_over: ["Match over", "比赛结束"],
  rank: ["Rank", "名次"],
  back_lobby: ["Back to the lobby", "返回大厅"],
  reading: ["Reading", "牌型拆解"],
  hu_items: ["Hu items", "和数项目"],
  item: ["Item", "项目"],
  tiles: ["Tiles", "牌"],
  hu: ["Hu", "和数"],
  doublings: ["Doublings", "番（翻倍）"],
  doubling: ["Doubling", "番"],
  losers: ["Losers' own counts", "输家自计和数"],
  gunner: ["Gunner (点炮)", "点炮"],
  no_gunner: ["no gunner", "无点炮"],
  payer: ["Payer", "付"],
  payee: ["Payee", "收"],
  amount: ["Amount", "数额"],
  reason: ["Reason", "原因"],
  on_behalf: ["for {0}", "代 {0}"],
  winning_tile: ["Winning tile", "和张"],
  // replay
  replay: ["Replay", "回放"],
  hands_of_room: ["Hands of room {0}", "房间 {0} 的牌局"],
  no_hands: ["No finished hand yet.", "还没有结束的牌局。"],
  in_play: ["in play", "进行中"],
  first: ["First", "第一步"],
  prev: ["Previous", "上一步"],
  next: ["Next", "下一步"],
  last: ["Last", "最后"],
  step_of: ["Step {0} / {1}", "第 {0} / {1} 步"],
  the_deal: ["The deal", "发牌"],
  to_act: ["to act", "待决定"],
  open: ["Open", "打开"],
  result: ["Result", "结果"],
  error: ["Error", "错误"],
  keys_table: ["Keys: ←/→ choose a tile, Enter discards, 0 discards the drawn tile, 1-9 the buttons, H hints",
    "按键：←/→ 选牌，回车打出，0 打出摸到的牌，1-9 按钮，H 提示"],
  keys_replay: ["Keys: ←/→ step, Home/End first/last", "按键：←/→ 单步，Home/End 开头/结尾"],
  // the replay's review pane
  review: ["Review", "复盘"],
  review_intro: ["What each decision of a seat was worth: the server's search plays every candidate out many times from what the seat could see then, and ranks them by expected points.",
    "评估某个座位每个决定的得失：服务器的搜索从该座位当时能看到的信息出发，把每个候选动作推演多次，按期望得分排序。"],
  review_closed: ["While the match is played, a seat's review is open only to its own player; once the match is over, to everyone.",
    "对局进行中，只有本座位的玩家能复盘自己的决定；对局结束后所有人都可以。"],
  review_own: ["Your seat: {0}", "你的座位：{0}"],
  review_start: ["Review {0}'s decisions", "复盘 {0} 的决定"],
  review_retry: ["Try again", "重试"],
  review_failed: ["The review failed: {0}", "复盘失败：{0}"],
  review_queued: ["Waiting for the server: {0} reviews ahead", "排队中：前面还有 {0} 个复盘"],
  review_starting: ["Reviewing…", "复盘中…"],
  review_running: ["Reviewing: {0} / {1} decisions", "复盘中：{0} / {1} 个决定"],
  review_summary: ["Expected loss {0} points; the top choice taken in {1} of {2} decisions ({3}).",
    "期望损失 {0} 分；{2} 个决定中 {1} 个选了最佳（{3}）。"],
  review_nothing: ["The seat never had a choice in this hand.", "本局该座位没有需要选择的时候。"],
  review_note: ["Estimates from at most {0} sampled deals a decision: read the intervals.",
    "每个决定至多推演 {0} 副模拟牌：请看区间。"],
  review_where: ["Step {0} · {1} · wall {2}: ", "第 {0} 步 · {1} · 余牌 {2}："],
  review_drew: ["drew {0}", "摸 {0}"],
  review_offer: ["{0} on offer", "别家打出 {0}"],
  review_goto: ["Show", "查看"],
  review_took: ["Took", "实际"],
  review_best: ["Best", "最佳"],
  review_loss: ["Loss", "损失"],
  review_candidate: ["Candidate", "候选"],
  review_points: ["Expected points", "期望得分"],
  review_interval: ["95% interval", "95% 区间"],
  review_rollouts: ["Rollouts", "推演"],
  phase_turn: ["own turn", "出牌"],
  phase_claim: ["a discard on offer", "吃碰杠和"],
  phase_rob: ["a kong to rob", "抢杠"],
  bot: ["bot {0}", "机器人 {0}"],
  n_bots: ["{0} × bot", "机器人 ×{0}"],
};

const WINDS = [["East", "South", "West", "North"], ["东", "南", "西", "北"]];
const DRAGONS = { C: ["Red dragon", "红中"], F: ["Green dragon", "发财"], P: ["White dragon", "白板"] };
const FLOWERS = {
  a: ["Spring", "春"], b: ["Summer", "夏"], c: ["Autumn", "秋"], d: ["Winter", "冬"],
  e: ["Plum", "梅"], f: ["Orchid", "兰"], g: ["Bamboo flower", "竹"], h: ["Chrysanthemum", "菊"],
};
const SUITS = { m: ["Characters", "万"], s: ["Bamboo", "条"], p: ["Dots", "饼"] };
const NUMERALS = "一二三四五六七八九";

const BOTS = { random: ["random", "随机"], efficient: ["efficient", "效率"], fan: ["fan-aware", "番型"],
  wild: ["wild-aware", "得牌"] };

const OPTIONS = {
  mixed_kong_pair_5: ["One exposed + one concealed kong scores 5", "明暗杠计5番"],
  special_shapes_add_concealed_hand: ["Special shapes add Concealed Hand", "特殊和型计门前清"],
  all_terminals_excludes_triple_pung: ["All Terminals excludes Triple Pung", "清幺九不计三同刻"],
  nine_gates_no_terminal_pung: ["Nine Gates excludes every terminal pung", "九莲宝灯不计幺九刻"],
  strict_1998_seven_pairs: ["Strict 1998 Seven Pairs", "七对严格按1998版"],
  no_tile_hog_in_green_terminal_pairs: ["No Tile Hog in green/terminal pairs", "绿一色/清幺九七对不计四归一"],
  knitted_straight_no_edge_closed: ["No edge/closed wait with Knitted Straight", "组合龙不计边张坎张"],
  false_win: ["False wins (错和) allowed", "允许错和"],
  false_win_penalty: ["False-win penalty", "错和罚分"],
  base_reward: ["Base reward (底和)", "底和"],
  limit: ["Limit (辣子), 0 = none", "辣子封顶（0为不封顶）"],
  bullets: ["Bullets per hand", "每局子弹"],
  dealer_count_scope: ["Dealer count multiplies", "庄数倍数范围"],
  edge_wait_bonus: ["Edge-wait bonus hu", "边张和数"],
  single_wait_bonus: ["Single-wait bonus hu", "单吊和数"],
  all_pungs_bonus: ["All-pungs bonus hu", "对对和和数"],
  kong_bloom_bonus: ["Kong-bloom bonus hu", "杠上花和数"],
  restored_fan_per_hand: ["Restored 得: one fan per hand", "还原得每手一番"],
  full_flush_fan: ["Full flush fan", "清一色番数"],
  no_wild_fan: ["No-得 fan", "无得番数"],
  discard_pung_concealed: ["Pung completed by a discard counts concealed", "点和刻子算暗刻"],
  live_dragon_face: ["Dragon wild face keeps honour credit", "箭牌得面仍计分"],
  rob_kong: ["Robbing a kong allowed", "允许抢杠"],
  skipped_win_restriction: ["No win after passing one until you draw", "过和不和"],
  gunner_test: ["Gunner test", "点炮判定"],
  throw_limit: ["Most bullets a dealer may throw", "最多抛弹数"],
};

const EVENTS = {
  discard: ["{0} discards {1}", "{0} 打 {1}"],
  draw: ["{0} draws", "{0} 摸牌"],
  draw_tile: ["{0} draws {1}", "{0} 摸 {1}"],
  chow: ["{0} chows {1}", "{0} 吃 {1}"],
  pung: ["{0} pungs {1}", "{0} 碰 {1}"],
  exposed_kong: ["{0} kongs {1}", "{0} 明杠 {1}"],
  concealed_kong: ["{0} declares a concealed kong", "{0} 暗杠"],
  concealed_kong_tile: ["{0} declares a concealed kong of {1}", "{0} 暗杠 {1}"],
  added_kong: ["{0} adds {1} to a kong", "{0} 加杠 {1}"],
  flower: ["{0} shows a flower {1}", "{0} 补花 {1}"],
  win: ["{0} wins ({1} points)", "{0} 和牌（{1} 分）"],
  false_win: ["{0} declares a false win", "{0} 错和"],
  exhaustive_draw: ["Exhaustive draw", "荒牌"],
  deal: ["The deal", "发牌"],
  indicator: ["Indicator {1}: the wild is {2}", "翻牌 {1}，得为 {2}"],
  raw_tile_phase: ["The raw-tile phase begins", "进入生牌阶段"],
  throw_bullets: ["{0} throws {1} bullets", "{0} 抛弹 {1}"],
  accept_bullets: ["{0} accepts the bullets", "{0} 接弹"],
  pass: ["{0} passes", "{0} 过"],
};

/** The current language: "en" or "zh". */
export function lang() { return current; }

/** Switch language, remember it, and tell the listeners (the page re-renders). */
export function setLang(value) {
  current = value === "zh" ? "zh" : "en";
  localStorage.setItem(KEY, current);
  document.documentElement.lang = current === "zh" ? "zh-Hans" : "en";
  for (const fn of listeners) fn(current);
}

/** Call fn after every language change. */
export function onLang(fn) { listeners.add(fn); }

function fill(text, args) {
  return text.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)] ?? ""));
}

/** The label for key in the current language, {0}.. filled from args. */
export function t(key, ...args) {
  const pair = L[key];
  if (!pair) return key;
  return fill(pair[current === "zh" ? 1 : 0], args);
}

/** English or Chinese of a pair of names. */
export function pick(en, zh) { return current === "zh" ? (zh || en) : (en || zh); }

/** A wind 0-3. */
export function windName(wind) { return WINDS[current === "zh" ? 1 : 0][wind] ?? "?"; }

/** Full name of a tile in notation ("5m", "E", "a"). */
export function tileName(name) {
  if (!name) return "?";
  const zh = current === "zh";
  if (/^[1-9][msp]$/.test(name)) {
    const [n, s] = name;
    return zh ? NUMERALS[Number(n) - 1] + SUITS[s][1] : `${n} ${SUITS[s][0]}`;
  }
  const wind = "ESWN".indexOf(name);
  if (wind >= 0) return zh ? WINDS[1][wind] + "风" : `${WINDS[0][wind]} wind`;
  if (DRAGONS[name]) return DRAGONS[name][zh ? 1 : 0];
  if (FLOWERS[name]) return FLOWERS[name][zh ? 1 : 0];
  return name;
}

/** A bot's name. */
export function botName(bot) {
  const pair = BOTS[bot];
  return t("bot", pair ? pair[current === "zh" ? 1 : 0] : bot);
}

/** The label of a rule option (its name when unknown). */
export function optionLabel(name) {
  const pair = OPTIONS[name];
  return pair ? pair[current === "zh" ? 1 : 0] : name.replaceAll("_", " ");
}

// the safety hint's reasons (majiang.safety.REASONS), {0} the tile, {1} the seat
const SAFETY = {
  wild: ["nobody may win on a discarded 得", "打出的得不能和"],
  honour_gone: ["no {0} left unseen: nobody can wait on it", "{0} 已无未见：无人能听"],
  honour_single: ["one {0} unseen: only a single wait", "{0} 仅剩一张未见：只能单钓"],
  honour_pair: ["two {0} unseen: only a single or pair wait", "{0} 剩两张未见：只能单钓或对倒"],
  honour_pung: ["three {0} unseen: a pung wait is possible", "{0} 剩三张未见：可能对倒"],
  genbutsu: ["in {1}'s pond", "{1} 打过（现物）"],
  flush_elsewhere: ["{1}'s melds are all in another suit (a flush)", "{1} 的副露全是别的花色（清/混一色）"],
  suji: ["suji: {1} discarded the tiles three ranks away", "筋：{1} 打过隔三张的牌"],
  flush_here: ["{1}'s melds are all in this suit (a flush)", "{1} 的副露全是这个花色（清/混一色）"],
  terminal: ["a terminal: fewer waits take it", "幺九牌：能和它的听型较少"],
  middle: ["a middle tile: most waits take it", "中张：多数听型都和它"],
  raw: ["raw in the raw-tile phase: a win on it may make you the gunner", "生牌阶段的生牌：被和可能点炮"],
};

/** A safety hint's reason in words; names[seat] names the opponent it is about. */
export function safetyReason(entry, names) {
  const pair = SAFETY[entry.why];
  if (!pair) return entry.text || entry.why;
  return fill(pair[current === "zh" ? 1 : 0], [tileName(entry.tile), entry.seat != null ? names[entry.seat] : ""]);
}

/** One event in words; who(seat) names a seat. */
export function describeEvent(ev, who) {
  const key = ev.type === "draw" && ev.tile ? "draw_tile"
    : ev.type === "concealed_kong" && ev.tile ? "concealed_kong_tile" : ev.type;
  const pair = EVENTS[key];
  if (!pair) return ev.type;
  const tile = ev.tile ? tileName(ev.tile) : ev.tiles ? ev.tiles.map(tileName).join(" ") : ev.count;
  const third = ev.type === "indicator" ? tileName(ev.wild) : "";
  const second = ev.type === "win" ? ev.points : tile;
  return fill(pair[current === "zh" ? 1 : 0], [ev.seat != null ? who(ev.seat) : "", second, third]);
}

/** An action (the engine's JSON) in words, for the replay. */
export function describeAction(action, who, seat) {
  const pair = action.type === "win" ? ["{0} declares a win", "{0} 宣布和牌"] : EVENTS[action.type];
  const tile = action.tile ? tileName(action.tile) : action.count ?? "";
  if (!pair) return `${who(seat)}: ${action.type}`;
  return fill(pair[current === "zh" ? 1 : 0], [who(seat), tile]);
}

document.documentElement.lang = current === "zh" ? "zh-Hans" : "en";

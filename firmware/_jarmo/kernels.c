// _jarmo: the search's hot paths in C, for Jarmo's firmware only.
//
// Each function here is a line-for-line model of a plain Python function of
// the rules core, which stays the reference: stock CircuitPython,
// MicroPython and CPython run the Python, and on Jarmo's firmware the
// firmware's frozen copies of those modules put these in its place at
// import (tools/firmware.py C_KERNELS; their PLAIN dicts keep the Python
// ones).  Same arguments, same results, same changes to the game:
// tests/device/test_c_kernels.py compares them position by position on the
// emulated board, and tests/device/test_native_search.py the search's nodes
// and turns with CPython's.
//
//   Game.gen_into, Game.repeat_move, Game.can_move    (jarmo/game.py)
//   Game.move_piece, Game.unmove_piece, Game.do_code, Game.undo_code,
//   Game._end_check, Game.all_in_camp
//   eval_scored, eval_race                            (jarmo/evaluation.py)
//   Player._order                                     (jarmo/ai.py)
//
// The game is read through its attributes (the search interface of
// jarmo/codes.py); byte tables through the buffer protocol.  Nothing here
// allocates but a node's key buffer, made once as the Python makes it.

#include <string.h>

#include "py/obj.h"
#include "py/objlist.h"
#include "py/objtype.h"
#include "py/runtime.h"

// Piece bytes, action codes and undo-log fields: jarmo/codes.py.
#define PRESENT 1
#define NORTH 2
#define GUARD 4
#define MARK 8
#define GOLD 16
#define WHOSE (PRESENT | NORTH)

#define K_MOVE 0
#define K_RECALL 1
#define K_PLACE 2
#define K_DONE 3
#define K_FLIP 4
#define K_FLIP_PLACE 5
#define K_REDEPLOY 6

#define S_START 0
#define S_PLACED 1
#define S_AFTER 2
#define S_AFTER_R 3

#define TO_POOL 0
#define TO_OUT 1
#define TO_HELD 2
#define TO_HOSTAGE 3

#define ACTION_BITS 0x1FFF
#define KIND_BITS 7
#define SOURCE 3
#define TARGET 8
#define POINT_BITS 31
#define SIDE_BIT 13
#define STAGE 14
#define CAPTURED 16
#define MOVER 21
#define WHERE 24
#define BROUGHT 26
#define FLAGS 2

// Evaluation weights and table layout: jarmo/evaluation.py.
#define PIECE 100
#define AI_CAMP 8          // jarmo/rulesets.py: a row's worth of a piece on the enemy camp
#define HELD 80
#define POOL 12
#define GUARD_RECOVERS 25
#define RECALL_READY 60
#define MARKER 15
#define STEP 100
#define HOSTAGE_STEPS 3
#define WIN 100000
#define BLOCKED 1
#define UNREACHABLE 9
#define FREE_ALL 775
#define DIST_SIZE 800
#define SINGLE_SIZE 125
#define ALL_PAIRS 0x1FFFFFFu
#define PIECE_PAIRS 0x1Fu
#define POINT_PAIRS 0x108421u

#define MAX_NEIGHBOURS 8      // lines from one point (jarmo/board.py: at most 6)

static const uint8_t prog_weight[16] = {0, 40, 22, 10, 3};

// jarmo.evaluation.TARGETS, where eval_scored leaves the points the side to
// act can move to (bind() sets it at the module's import).
MP_REGISTER_ROOT_POINTER(mp_obj_t jarmo_targets);

static inline int row_of(int p) {
    return p / 5;
}

static inline int home_row(int side) {
    return side ? 4 : 0;
}

static mp_int_t small(mp_obj_t o) {
    return mp_obj_is_small_int(o) ? MP_OBJ_SMALL_INT_VALUE(o) : mp_obj_get_int(o);
}

// A byte table of at least `size` bytes (bytes or bytearray).
static uint8_t *bytes_of(mp_obj_t o, size_t size, mp_uint_t flags) {
    mp_buffer_info_t info;
    mp_get_buffer_raise(o, &info, flags);
    if (info.len < size) {
        mp_raise_ValueError(MP_ERROR_TEXT("table too short"));
    }
    return info.buf;
}

// The game's attributes: an instance's own straight from its dict, as the
// VM's attribute load looks there first too; anything else (a class
// attribute, an object that is not an instance) the usual way.  A full
// load or store also looks the class up (for a property or a method):
// with the division each map lookup costs, that was a fifth of a node.
//
// The entry a name was last found at is kept (by the name's low bits): it is
// taken again while it lies in this instance's dict and holds that name
// (the same dict, not grown since), which skips the lookup's hashing and
// its division.  The pointer is only compared until then: a dict that grew
// or went leaves it outside every live dict it is checked against.
#define ATTR_SLOTS 64
static mp_map_elem_t *attr_seen[ATTR_SLOTS];

static mp_map_elem_t *own_attr(mp_obj_t g, qstr name) {
    if (!mp_obj_is_obj(g) || !mp_obj_is_instance_type(mp_obj_get_type(g))) {
        return NULL;
    }
    mp_map_t *members = &((mp_obj_instance_t *)MP_OBJ_TO_PTR(g))->members;
    mp_obj_t key = MP_OBJ_NEW_QSTR(name);
    mp_map_elem_t *elem = attr_seen[name % ATTR_SLOTS];
    if (elem >= members->table && elem < members->table + members->alloc && elem->key == key) {
        return elem;
    }
    elem = mp_map_lookup(members, key, MP_MAP_LOOKUP);
    if (elem != NULL) {
        attr_seen[name % ATTR_SLOTS] = elem;
    }
    return elem;
}

static mp_obj_t attr(mp_obj_t g, qstr name) {
    mp_map_elem_t *elem = own_attr(g, name);
    return elem != NULL ? elem->value : mp_load_attr(g, name);
}

// A store into an attribute the instance already has: the value replaced in
// its dict (a class property of that name would have kept it out of the
// dict; Game has none of the names stored here), else the usual store.
static void set_attr(mp_obj_t g, qstr name, mp_obj_t value) {
    mp_map_elem_t *elem = own_attr(g, name);
    if (elem != NULL) {
        elem->value = value;
    } else {
        mp_store_attr(g, name, value);
    }
}

static uint8_t *byte_attr(mp_obj_t g, qstr name, size_t size, mp_uint_t flags) {
    return bytes_of(attr(g, name), size, flags);
}

static bool true_attr(mp_obj_t g, qstr name) {
    return mp_obj_is_true(attr(g, name));
}

// A point (0..24) given as an argument.
static int point_arg(mp_obj_t o) {
    mp_int_t p = small(o);
    if (p < 0 || p > 24) {
        mp_raise_ValueError(MP_ERROR_TEXT("not a point"));
    }
    return p;
}

static mp_obj_t *items_of(mp_obj_t o, size_t size) {
    size_t len;
    mp_obj_t *items;
    mp_obj_get_array(o, &len, &items);
    if (len < size) {
        mp_raise_ValueError(MP_ERROR_TEXT("table too short"));
    }
    return items;
}

// An action buffer: an array('H') written directly, any other sequence
// (Game's own list) by item assignment.
typedef struct {
    mp_obj_t obj;
    uint16_t *codes;
    size_t size;
} actions_t;

static void actions_init(actions_t *out, mp_obj_t obj) {
    mp_buffer_info_t info;
    out->obj = obj;
    out->codes = NULL;
    out->size = 0;
    if (mp_get_buffer(obj, &info, MP_BUFFER_WRITE) && info.typecode == 'H') {
        out->codes = info.buf;
        out->size = info.len / 2;
    }
}

static void put(actions_t *out, int n, int code) {
    if (out->codes != NULL) {
        if ((size_t)n >= out->size) {
            mp_raise_msg(&mp_type_IndexError, MP_ERROR_TEXT("action buffer full"));
        }
        out->codes[n] = code;
    } else {
        mp_obj_subscr(out->obj, MP_OBJ_NEW_SMALL_INT(n), MP_OBJ_NEW_SMALL_INT(code));
    }
}

// ------------------------------------------------------------ Game methods

// A method for a Python class: unlike a built-in function (which a class
// attribute never binds), it gets the instance as its first argument.
typedef struct {
    mp_obj_base_t base;
    mp_obj_t (*fun)(size_t n_args, const mp_obj_t *args);
    uint8_t n_min;
    uint8_t n_max;
} method_obj_t;

static mp_obj_t method_call(mp_obj_t self_in, size_t n_args, size_t n_kw, const mp_obj_t *args) {
    const method_obj_t *method = MP_OBJ_TO_PTR(self_in);
    mp_arg_check_num(n_args, n_kw, method->n_min, method->n_max, false);
    return method->fun(n_args, args);
}

static MP_DEFINE_CONST_OBJ_TYPE(
    method_type,
    MP_QSTR_kernel,
    MP_TYPE_FLAG_BINDS_SELF,
    call, method_call
    );

#define METHOD(name, fun, n_min, n_max) \
    static const method_obj_t name = { { &method_type }, fun, n_min, n_max }

// The position's fields every method below reads.
typedef struct {
    uint8_t *top;
    uint8_t *held;
    uint8_t *pool;
    uint8_t *out;
    int mover;
} position_t;

static void position_of(mp_obj_t g, position_t *pos) {
    pos->top = byte_attr(g, MP_QSTR_top, 25, MP_BUFFER_WRITE);
    pos->held = byte_attr(g, MP_QSTR_held_count, 2, MP_BUFFER_WRITE);
    pos->pool = byte_attr(g, MP_QSTR_pool, 2, MP_BUFFER_WRITE);
    pos->out = byte_attr(g, MP_QSTR_out_count, 2, MP_BUFFER_WRITE);
    pos->mover = small(attr(g, MP_QSTR_mover));
}

// Game._gen_camp: actions of one kind for every empty point of the mover's camp.
static int gen_camp(const position_t *pos, actions_t *buf, int n, int kind, int a) {
    int first = home_row(pos->mover) * 5;
    for (int b = first; b < first + 5; b++) {
        if (!pos->top[b]) {
            put(buf, n++, kind | a << SOURCE | b << TARGET);
        }
    }
    return n;
}

// Game._gen_sources: recalls or flips, one per own piece with `flag` on the enemy camp.
static int gen_sources(const position_t *pos, actions_t *buf, int n, int kind, int flag,
    int enemy_row, bool to_camp) {
    int sidebit = pos->mover << 1;
    for (int a = enemy_row * 5; a < enemy_row * 5 + 5; a++) {
        int p = pos->top[a];
        if (p && (p & NORTH) == sidebit && (p & flag)) {
            if (to_camp) {
                n = gen_camp(pos, buf, n, kind, a);
            } else {
                put(buf, n++, kind | a << SOURCE);
            }
        }
    }
    return n;
}

// Game._room: an empty point on the side's camp and fewer than 5 pieces on the board.
static bool room(const position_t *pos, int side) {
    if (pos->held[side] + pos->pool[side] + pos->out[side] == 0) {
        return false;
    }
    int first = home_row(side) * 5;
    for (int b = first; b < first + 5; b++) {
        if (!pos->top[b]) {
            return true;
        }
    }
    return false;
}

static bool can_place(const position_t *pos, int side) {
    return pos->held[side] > 0 && room(pos, side);
}

static int reverse_move(int code) {
    return ((code >> TARGET) & POINT_BITS) << SOURCE | ((code >> SOURCE) & POINT_BITS) << TARGET;
}

// Game.repeat_move: the move x-y if the side's own last four moves were x-y, y-x, x-y, y-x.
static int repeat_move(mp_obj_t g, int side) {
    size_t len;
    mp_obj_t *log;
    mp_obj_get_array(attr(g, MP_QSTR_undo_log), &len, &log);
    int moves = 0;
    int last = 0;
    int second = 0;
    for (int i = (int)len - 1; i >= 0 && moves < 4; i--) {
        mp_int_t entry = small(log[i]);
        if (((entry >> SIDE_BIT) & 1) != side) {
            continue;
        }
        int kind = entry & KIND_BITS;
        if (kind == K_DONE) {
            continue;
        }
        if (kind != K_MOVE) {
            return -1;
        }
        int code = entry & ACTION_BITS;
        if (moves == 0) {
            last = code;
        } else if (moves == 1) {
            second = code;
            if (second != reverse_move(last)) {
                return -1;
            }
        } else if (code != (moves == 2 ? last : second)) {
            return -1;
        }
        moves++;
    }
    return moves == 4 ? second : -1;
}

static mp_obj_t repeat_move_obj(size_t n_args, const mp_obj_t *args) {
    (void)n_args;
    return MP_OBJ_NEW_SMALL_INT(repeat_move(args[0], small(args[1])));
}
METHOD(repeat_move_fun, repeat_move_obj, 2, 2);

static mp_obj_t *neighbours_of(mp_obj_t g, int side) {
    mp_obj_t *sides = items_of(attr(g, MP_QSTR_neighbours), 2);
    return items_of(sides[side], 25);
}

// The moves of the side's piece on f (none if no piece of the side stands
// there or it is frozen on its enemy camp): their targets into to, how many.
static int piece_moves(const uint8_t *top, mp_obj_t nbrs, int f, int side, bool camp_safe,
    int to[MAX_NEIGHBOURS]) {
    int sidebit = side << 1;
    int p = top[f];
    if (!p || (p & NORTH) != sidebit || row_of(f) == home_row(1 - side)) {
        return 0;
    }
    size_t count;
    mp_obj_t *targets;
    mp_obj_get_array(nbrs, &count, &targets);
    if (count > MAX_NEIGHBOURS) {
        mp_raise_ValueError(MP_ERROR_TEXT("too many neighbours"));
    }
    int n = 0;
    for (size_t k = 0; k < count; k++) {
        int t = small(targets[k]) % 25;
        int q = top[t];
        if (q && ((q & NORTH) == sidebit || (camp_safe && row_of(t) == home_row(side)))) {
            continue;
        }
        to[n++] = t;
    }
    return n;
}

// Game.gen_into(buf, first_only=False): the legal action codes into buf; how many.
static mp_obj_t gen_into(size_t n_args, const mp_obj_t *args) {
    mp_obj_t g = args[0];
    bool first_only = n_args > 2 && mp_obj_is_true(args[2]);
    if (attr(g, MP_QSTR_outcome) != mp_const_none) {
        return MP_OBJ_NEW_SMALL_INT(0);
    }
    actions_t buf;
    actions_init(&buf, args[1]);
    position_t pos;
    position_of(g, &pos);
    int side = pos.mover;
    int stage = small(attr(g, MP_QSTR_stage));
    const uint8_t *top = pos.top;
    int own_row = home_row(side);
    int enemy_row = home_row(1 - side);
    bool one_action = true_attr(g, MP_QSTR_one_action);
    int n = 0;
    if (stage >= S_AFTER) {
        if (stage == S_AFTER_R) {
            for (int b = own_row * 5; b < own_row * 5 + 5; b++) {
                if (!top[b]) {
                    put(&buf, n++, K_REDEPLOY | b << TARGET);
                }
            }
        }
        if (!one_action && can_place(&pos, side)) {
            n = gen_camp(&pos, &buf, n, K_PLACE, 0);
        }
        put(&buf, n, K_DONE);
        return MP_OBJ_NEW_SMALL_INT(n + 1);
    }
    mp_obj_t *nbrs = neighbours_of(g, side);
    bool camp_safe = true_attr(g, MP_QSTR_camp_safe);
    int banned = true_attr(g, MP_QSTR_ban) ? repeat_move(g, side) : -1;
    int to[MAX_NEIGHBOURS];
    for (int f = 0; f < 25; f++) {
        int moves = piece_moves(top, nbrs[f], f, side, camp_safe, to);
        for (int k = 0; k < moves; k++) {
            int code = f << SOURCE | to[k] << TARGET;
            if (code != banned) {
                put(&buf, n++, code);
            }
        }
        if (n && first_only) {
            return MP_OBJ_NEW_SMALL_INT(n);
        }
    }
    if (can_place(&pos, side) && (stage == S_START || !one_action)) {
        n = gen_camp(&pos, &buf, n, K_PLACE, 0);
    }
    if (stage == S_START && pos.pool[side]) {
        if (true_attr(g, MP_QSTR_marks)) {
            n = gen_sources(&pos, &buf, n, K_RECALL, MARK, enemy_row, true);
        } else if (true_attr(g, MP_QSTR_guards_stay)) {
            n = gen_sources(&pos, &buf, n, K_FLIP, GUARD, enemy_row, false);
            if (room(&pos, side)) {
                n = gen_sources(&pos, &buf, n, K_FLIP_PLACE, GUARD, enemy_row, true);
            }
        }
    }
    return MP_OBJ_NEW_SMALL_INT(n);
}
METHOD(gen_into_fun, gen_into, 2, 3);

// Game.can_move(side): True if the side has a legal move now.
static bool side_can_move(mp_obj_t g, int side) {
    const uint8_t *top = byte_attr(g, MP_QSTR_top, 25, MP_BUFFER_READ);
    mp_obj_t *nbrs = neighbours_of(g, side);
    bool camp_safe = true_attr(g, MP_QSTR_camp_safe);
    bool ban = true_attr(g, MP_QSTR_ban);
    int found = -1;
    int f = side ? 24 : 0;
    int stop = side ? -1 : 25;
    int step = side ? -1 : 1;
    int to[MAX_NEIGHBOURS];
    for (; f != stop; f += step) {
        int moves = piece_moves(top, nbrs[f], f, side, camp_safe, to);
        for (int k = 0; k < moves; k++) {
            if (!ban || found >= 0) {
                return true;   // (two moves: the back-and-forth ban forbids one at most)
            }
            found = f << SOURCE | to[k] << TARGET;
        }
    }
    return found >= 0 && found != repeat_move(g, side);
}

static mp_obj_t can_move(size_t n_args, const mp_obj_t *args) {
    (void)n_args;
    return mp_obj_new_bool(side_can_move(args[0], small(args[1])));
}
METHOD(can_move_fun, can_move, 2, 2);

// Game._capture: take the captured piece q off the board; where it went.
static int capture(mp_obj_t g, int q) {
    int owner = (q >> 1) & 1;
    int gold = q & GOLD;
    int where;
    if (gold && !(q & GUARD)) {
        where = TO_OUT;
    } else if (true_attr(g, MP_QSTR_taken_held)) {
        where = (q & GUARD) ? TO_HELD : TO_OUT;
    } else {
        where = TO_POOL;
    }
    if (where == TO_POOL) {
        byte_attr(g, MP_QSTR_pool, 2, MP_BUFFER_WRITE)[owner] += 1;
        if (gold) {
            byte_attr(g, MP_QSTR_pool_gold, 2, MP_BUFFER_WRITE)[owner] = 1;
        }
    } else if (where == TO_HELD) {
        byte_attr(g, MP_QSTR_held_count, 2, MP_BUFFER_WRITE)[owner] += 1;
        if (gold) {
            byte_attr(g, MP_QSTR_held_gold, 2, MP_BUFFER_WRITE)[owner] = 1;
        }
    } else {
        byte_attr(g, MP_QSTR_out_count, 2, MP_BUFFER_WRITE)[owner] += 1;
    }
    return where;
}

// Game._recover: one captured piece to the hand; 0 if none, 1 ordinary, 2 golden.
static int recover(mp_obj_t g, int side) {
    uint8_t *pool = byte_attr(g, MP_QSTR_pool, 2, MP_BUFFER_WRITE);
    if (!pool[side]) {
        return 0;
    }
    pool[side] -= 1;
    byte_attr(g, MP_QSTR_held_count, 2, MP_BUFFER_WRITE)[side] += 1;
    uint8_t *pool_gold = byte_attr(g, MP_QSTR_pool_gold, 2, MP_BUFFER_WRITE);
    if (pool[side] < pool_gold[side]) {
        pool_gold[side] = 0;
        byte_attr(g, MP_QSTR_held_gold, 2, MP_BUFFER_WRITE)[side] = 1;
        return 2;
    }
    return 1;
}

// Game.move_piece(side, a, b): the piece on a to b; the undo fields of the move.
static mp_int_t move(mp_obj_t g, uint8_t *top, int side, int a, int b) {
    uint8_t *under = byte_attr(g, MP_QSTR_under, 25, MP_BUFFER_WRITE);
    int p = top[a];
    int q = top[b];
    mp_int_t fields = (mp_int_t)q << CAPTURED | (mp_int_t)((p >> FLAGS) & 7) << MOVER;
    int u = under[a];
    if (u) {
        top[a] = u;
        under[a] = 0;
    } else {
        top[a] = 0;
    }
    int enemy_row = home_row(1 - side);
    if (q) {
        if (true_attr(g, MP_QSTR_heroes) && (q & GOLD) && (q & GUARD) && !under[b]) {
            under[b] = q & ~GUARD;
            fields |= (mp_int_t)TO_HOSTAGE << WHERE;
        } else {
            fields |= (mp_int_t)capture(g, q) << WHERE;
        }
        if (true_attr(g, MP_QSTR_marks)) {
            p |= MARK;
        } else if (!(p & (GUARD | GOLD)) && row_of(b) != enemy_row) {
            p |= GUARD;
        }
    }
    if (row_of(b) == enemy_row && (p & GUARD) && !true_attr(g, MP_QSTR_guards_stay)) {
        p &= ~GUARD;
        fields |= (mp_int_t)recover(g, side) << BROUGHT;
    }
    top[b] = p;
    return fields;
}

static mp_obj_t move_piece(size_t n_args, const mp_obj_t *args) {
    (void)n_args;
    uint8_t *top = byte_attr(args[0], MP_QSTR_top, 25, MP_BUFFER_WRITE);
    return MP_OBJ_NEW_SMALL_INT(move(args[0], top, small(args[1]), point_arg(args[2]),
        point_arg(args[3])));
}
METHOD(move_piece_fun, move_piece, 4, 4);

// Game._unrecover: a recovered piece back from the hand to the captured ones.
static void unrecover(mp_obj_t g, int side, int which) {
    if (which) {
        byte_attr(g, MP_QSTR_held_count, 2, MP_BUFFER_WRITE)[side] -= 1;
        byte_attr(g, MP_QSTR_pool, 2, MP_BUFFER_WRITE)[side] += 1;
        if (which == 2) {
            byte_attr(g, MP_QSTR_held_gold, 2, MP_BUFFER_WRITE)[side] = 0;
            byte_attr(g, MP_QSTR_pool_gold, 2, MP_BUFFER_WRITE)[side] = 1;
        }
    }
}

static void unmove(mp_obj_t g, uint8_t *top, int side, int a, int b, mp_int_t entry) {
    uint8_t *under = byte_attr(g, MP_QSTR_under, 25, MP_BUFFER_WRITE);
    int q = (entry >> CAPTURED) & POINT_BITS;
    if (top[a]) {
        under[a] = top[a];
    }
    top[a] = PRESENT | side << 1 | ((entry >> MOVER) & 7) << FLAGS;
    top[b] = q;
    if (q) {
        int where = (entry >> WHERE) & 3;
        int owner = 1 - side;
        int gold = (q & GOLD) ? 1 : 0;
        if (where == TO_HOSTAGE) {
            under[b] = 0;
        } else if (where == TO_POOL) {
            byte_attr(g, MP_QSTR_pool, 2, MP_BUFFER_WRITE)[owner] -= 1;
            if (gold) {
                byte_attr(g, MP_QSTR_pool_gold, 2, MP_BUFFER_WRITE)[owner] = 0;
            }
        } else if (where == TO_HELD) {
            byte_attr(g, MP_QSTR_held_count, 2, MP_BUFFER_WRITE)[owner] -= 1;
            if (gold) {
                byte_attr(g, MP_QSTR_held_gold, 2, MP_BUFFER_WRITE)[owner] = 0;
            }
        } else {
            byte_attr(g, MP_QSTR_out_count, 2, MP_BUFFER_WRITE)[owner] -= 1;
        }
    }
    if (entry >> BROUGHT) {
        unrecover(g, side, (entry >> BROUGHT) & 3);
    }
}

// Game.unmove_piece(side, a, b, entry): move_piece taken back.
static mp_obj_t unmove_piece(size_t n_args, const mp_obj_t *args) {
    (void)n_args;
    uint8_t *top = byte_attr(args[0], MP_QSTR_top, 25, MP_BUFFER_WRITE);
    unmove(args[0], top, small(args[1]), point_arg(args[2]), point_arg(args[3]), small(args[4]));
    return mp_const_none;
}
METHOD(unmove_piece_fun, unmove_piece, 5, 5);

// Game.undo_code(): take back the last action played.
static mp_obj_t undo_code(size_t n_args, const mp_obj_t *args) {
    (void)n_args;
    mp_obj_t g = args[0];
    mp_obj_t pop[2];
    mp_load_method(attr(g, MP_QSTR_undo_log), MP_QSTR_pop, pop);
    mp_int_t entry = small(mp_call_method_n_kw(0, 0, pop));
    int side = (entry >> SIDE_BIT) & 1;
    if (small(attr(g, MP_QSTR_mover)) != side) {
        set_attr(g, MP_QSTR_ply_count,
            MP_OBJ_NEW_SMALL_INT(small(attr(g, MP_QSTR_ply_count)) - 1));
        set_attr(g, MP_QSTR_mover, MP_OBJ_NEW_SMALL_INT(side));
    }
    set_attr(g, MP_QSTR_stage, MP_OBJ_NEW_SMALL_INT((entry >> STAGE) & 3));
    set_attr(g, MP_QSTR_outcome, mp_const_none);
    int kind = entry & KIND_BITS;
    int a = (entry >> SOURCE) & POINT_BITS;
    int b = (entry >> TARGET) & POINT_BITS;
    if (a > 24 || b > 24) {
        mp_raise_ValueError(MP_ERROR_TEXT("not a point"));
    }
    uint8_t *top = byte_attr(g, MP_QSTR_top, 25, MP_BUFFER_WRITE);
    if (kind == K_MOVE) {
        if (entry >> WHERE || (entry >> CAPTURED) & POINT_BITS || top[a]) {
            unmove(g, top, side, a, b, entry);
        } else {
            top[a] = PRESENT | side << 1 | ((entry >> MOVER) & 7) << FLAGS;
            top[b] = 0;
        }
        return mp_const_none;
    }
    int which = (entry >> BROUGHT) & 3;
    if (kind == K_PLACE) {
        byte_attr(g, MP_QSTR_held_count, 2, MP_BUFFER_WRITE)[side] += 1;
        byte_attr(g, MP_QSTR_held_gold, 2, MP_BUFFER_WRITE)[side] |= which >> 1;
        top[b] = 0;
    } else if (kind == K_RECALL) {
        top[a] |= MARK;
        byte_attr(g, MP_QSTR_pool, 2, MP_BUFFER_WRITE)[side] += 1;
        top[b] = 0;
    } else if (kind == K_FLIP) {
        top[a] |= GUARD;
        unrecover(g, side, which);
    } else if (kind == K_FLIP_PLACE || kind == K_REDEPLOY) {
        if (kind == K_FLIP_PLACE) {
            top[a] |= GUARD;
        } else {
            set_attr(g, MP_QSTR_markers_on, mp_const_true);
        }
        byte_attr(g, MP_QSTR_pool, 2, MP_BUFFER_WRITE)[side] += 1;
        byte_attr(g, MP_QSTR_pool_gold, 2, MP_BUFFER_WRITE)[side] |= which >> 1;
        top[b] = 0;
    }
    return mp_const_none;
}
METHOD(undo_code_fun, undo_code, 1, 1);

// Game.all_in_camp(side): all the side's pieces on the board (at least one)
// stand on its enemy camp.
static bool side_all_in_camp(mp_obj_t g, int side) {
    const uint8_t *top = byte_attr(g, MP_QSTR_top, 25, MP_BUFFER_READ);
    const uint8_t *under = byte_attr(g, MP_QSTR_under, 25, MP_BUFFER_READ);
    int sidebit = side << 1;
    int camp = side ? 0 : 20;
    int p = side ? 24 : 0;
    int stop = side ? 4 : 20;
    int step = side ? -1 : 1;
    for (; p != stop; p += step) {           // from the side's home row
        if (top[p] && ((top[p] & NORTH) == sidebit
                       || (under[p] && (under[p] & NORTH) == sidebit))) {
            return false;
        }
    }
    for (p = camp; p < camp + 5; p++) {
        if (top[p] && ((top[p] & NORTH) == sidebit
                       || (under[p] && (under[p] & NORTH) == sidebit))) {
            return true;
        }
    }
    return false;
}

static mp_obj_t all_in_camp(size_t n_args, const mp_obj_t *args) {
    (void)n_args;
    return mp_obj_new_bool(side_all_in_camp(args[0], small(args[1])));
}
METHOD(all_in_camp_fun, all_in_camp, 2, 2);

// self.name(args...): a Python method of the game (the results' making).
static mp_obj_t call_method(mp_obj_t g, qstr name, size_t n, mp_obj_t a0, mp_obj_t a1) {
    mp_obj_t call[4];
    mp_load_method(g, name, call);
    call[2] = a0;
    call[3] = a1;
    return mp_call_method_n_kw(n, 0, call);
}

static mp_obj_t win(mp_obj_t g, int side, qstr reason) {
    return call_method(g, MP_QSTR__win, 2, MP_OBJ_NEW_SMALL_INT(side), MP_OBJ_NEW_QSTR(reason));
}

static mp_obj_t tally(mp_obj_t g, qstr reason) {
    return call_method(g, MP_QSTR__tally, 1, MP_OBJ_NEW_QSTR(reason), MP_OBJ_NULL);
}

// Game._end_check(mover): RULES.md section 2 order: wipe-out, camp,
// repetition, ply limit; None, or the Result (made by the game's _win and
// _tally).
static mp_obj_t end_check(mp_obj_t g, int mover) {
    int other = 1 - mover;
    bool ban = true_attr(g, MP_QSTR_ban);
    bool scored = true_attr(g, MP_QSTR_scored);
    size_t len;
    mp_obj_t *log;
    mp_obj_get_array(attr(g, MP_QSTR_undo_log), &len, &log);
    if (len == 0) {
        mp_raise_msg(&mp_type_IndexError, MP_ERROR_TEXT("empty undo log"));
    }
    mp_int_t last = small(log[len - 1]);
    bool moved = !(last & KIND_BITS);
    bool took = (last >> CAPTURED) & POINT_BITS;
    if (!ban && (!moved || took)) {
        const uint8_t *pool = byte_attr(g, MP_QSTR_pool, 2, MP_BUFFER_READ);
        const uint8_t *out = byte_attr(g, MP_QSTR_out_count, 2, MP_BUFFER_READ);
        if (pool[other] + out[other] == 5) {
            return win(g, mover, MP_QSTR_wipeout);
        }
        if (pool[mover] + out[mover] == 5) {
            return win(g, other, MP_QSTR_wipeout);
        }
    }
    if ((!moved || row_of((last >> TARGET) & POINT_BITS) == home_row(other))
        && side_all_in_camp(g, mover)) {
        return scored ? tally(g, MP_QSTR_camp) : win(g, mover, MP_QSTR_camp);
    }
    if (scored && (!moved || took) && side_all_in_camp(g, other)) {
        return tally(g, MP_QSTR_camp);
    }
    if (!ban && len >= 8) {                  // a repetition takes 4 moves a side
        mp_int_t e2 = small(log[len - 2]);
        mp_int_t e3 = small(log[len - 3]);
        if (((last | e2 | e3) & KIND_BITS) || !(((last ^ e2) >> SIDE_BIT) & 1)
            || (((last ^ e3) >> SIDE_BIT) & 1)
            || (e3 & ACTION_BITS) == reverse_move(last & ACTION_BITS)) {
            if (repeat_move(g, 0) >= 0 && repeat_move(g, 1) >= 0) {
                return tally(g, MP_QSTR_repetition);
            }
        }
    }
    mp_obj_t limit = attr(g, MP_QSTR_ply_limit);
    if (limit != mp_const_none && small(attr(g, MP_QSTR_ply_count)) >= small(limit)) {
        return tally(g, MP_QSTR_limit);
    }
    return mp_const_none;
}

static mp_obj_t end_check_obj(size_t n_args, const mp_obj_t *args) {
    (void)n_args;
    return end_check(args[0], small(args[1]));
}
METHOD(end_check_fun, end_check_obj, 2, 2);

// Game._bring_back: a held (count: held_count) or captured (pool) piece on
// b, archer face up, ordinary pieces before the Golden Soldier; 1
// ordinary, 2 golden.
static int bring_back(mp_obj_t g, uint8_t *top, qstr count_name, qstr gold_name, int side, int b) {
    uint8_t *count = byte_attr(g, count_name, 2, MP_BUFFER_WRITE);
    uint8_t *gold = byte_attr(g, gold_name, 2, MP_BUFFER_WRITE);
    count[side] -= 1;
    bool golden = count[side] < gold[side];
    if (golden) {
        gold[side] = 0;
    }
    top[b] = PRESENT | side << 1 | (golden ? GOLD : 0);
    return golden ? 2 : 1;
}

// Game._redeploy_possible(side)
static bool redeploy_possible(mp_obj_t g, const position_t *pos, int side) {
    if (!true_attr(g, MP_QSTR_markers_on) || !pos->pool[side] || !room(pos, side)) {
        return false;
    }
    mp_obj_t *markers = items_of(attr(g, MP_QSTR_marker_points), 2);
    for (int k = 0; k < 2; k++) {
        int q = pos->top[small(markers[k]) % 25];
        if (!q || (q & NORTH) != side << 1) {
            return false;
        }
    }
    return true;
}

static void set_stage(mp_obj_t g, int stage) {
    set_attr(g, MP_QSTR_stage, MP_OBJ_NEW_SMALL_INT(stage));
}

// Game._after_placing(side): after a placement or redeploy in an open
// turn, true if it stays open.
static bool after_placing(mp_obj_t g, const position_t *pos, int side) {
    if (small(attr(g, MP_QSTR_stage)) == S_AFTER_R && redeploy_possible(g, pos, side)) {
        return true;
    }
    if (!true_attr(g, MP_QSTR_one_action) && can_place(pos, side)) {
        set_stage(g, S_AFTER);
        return true;
    }
    return false;
}

// gen_into(self._buffer, True): does the side to act have any action?
static bool has_action(mp_obj_t g) {
    mp_obj_t args[3] = { g, attr(g, MP_QSTR__buffer), mp_const_true };
    return small(gen_into(3, args)) != 0;
}

// Game.do_code(code): apply a legal action code (unchecked) and settle the turn.
static mp_obj_t do_code(size_t n_args, const mp_obj_t *args) {
    (void)n_args;
    mp_obj_t g = args[0];
    mp_int_t code = small(args[1]);
    position_t pos;
    position_of(g, &pos);
    uint8_t *top = pos.top;
    int side = pos.mover;
    int stage = small(attr(g, MP_QSTR_stage));
    int kind = code & KIND_BITS;
    int a = (code >> SOURCE) & POINT_BITS;
    int b = code >> TARGET;
    if (a > 24 || b > 24) {
        mp_raise_ValueError(MP_ERROR_TEXT("not a point"));
    }
    mp_int_t entry = code | side << SIDE_BIT | stage << STAGE;
    bool ends_turn = true;
    if (kind == K_MOVE) {
        int p = top[a];
        const uint8_t *under = byte_attr(g, MP_QSTR_under, 25, MP_BUFFER_READ);
        if (top[b] || under[a] || (side ? b < 5 : b >= 20)) {
            entry |= move(g, top, side, a, b);
        } else {
            entry |= (mp_int_t)((p >> FLAGS) & 7) << MOVER;
            top[a] = 0;
            top[b] = p;
        }
        if (true_attr(g, MP_QSTR_markers_on) && redeploy_possible(g, &pos, side)) {
            set_stage(g, S_AFTER_R);
            ends_turn = false;
        } else if (pos.held[side] && !true_attr(g, MP_QSTR_one_action) && room(&pos, side)) {
            set_stage(g, S_AFTER);
            ends_turn = false;
        }
    } else if (kind == K_PLACE) {
        entry |= (mp_int_t)bring_back(g, top, MP_QSTR_held_count, MP_QSTR_held_gold, side, b) << BROUGHT;
        if (stage >= S_AFTER) {
            ends_turn = !after_placing(g, &pos, side);
        } else if (!true_attr(g, MP_QSTR_one_action)) {
            set_stage(g, S_PLACED);
            ends_turn = false;
        }
    } else if (kind == K_RECALL) {
        top[a] &= ~MARK;
        pos.pool[side] -= 1;
        top[b] = PRESENT | side << 1;
    } else if (kind == K_FLIP) {
        top[a] &= ~GUARD;
        entry |= (mp_int_t)recover(g, side) << BROUGHT;
    } else if (kind == K_FLIP_PLACE) {
        top[a] &= ~GUARD;
        entry |= (mp_int_t)bring_back(g, top, MP_QSTR_pool, MP_QSTR_pool_gold, side, b) << BROUGHT;
    } else if (kind == K_REDEPLOY) {
        entry |= (mp_int_t)bring_back(g, top, MP_QSTR_pool, MP_QSTR_pool_gold, side, b) << BROUGHT;
        set_attr(g, MP_QSTR_markers_on, mp_const_false);
        ends_turn = !after_placing(g, &pos, side);
    }
    mp_obj_list_append(attr(g, MP_QSTR_undo_log), MP_OBJ_NEW_SMALL_INT(entry));
    if (ends_turn) {
        set_attr(g, MP_QSTR_ply_count,
            MP_OBJ_NEW_SMALL_INT(small(attr(g, MP_QSTR_ply_count)) + 1));
        set_stage(g, S_START);
        int other = 1 - side;
        set_attr(g, MP_QSTR_mover, MP_OBJ_NEW_SMALL_INT(other));
        mp_obj_t result = end_check(g, side);
        if (result == mp_const_none && !side_can_move(g, other) && !has_action(g)) {
            result = call_method(g, MP_QSTR__stuck_result, 0, MP_OBJ_NULL, MP_OBJ_NULL);
        }
        if (result != mp_const_none) {
            set_attr(g, MP_QSTR_outcome, result);
        }
    } else if (!has_action(g)) {
        set_attr(g, MP_QSTR_outcome, call_method(g, MP_QSTR__stuck_result, 0, MP_OBJ_NULL, MP_OBJ_NULL));
    }
    return mp_const_none;
}
METHOD(do_code_fun, do_code, 2, 2);

// ------------------------------------------------------------- evaluation

// The distance tables of jarmo.ai: (masks0, masks1, dist0, dist1, single0, single1).
typedef struct {
    mp_obj_t *masks[2];
    const uint8_t *dist[2];
    const uint8_t *single[2];
} tables_t;

static void tables_of(mp_obj_t obj, tables_t *t) {
    mp_obj_t *items = items_of(obj, 6);
    for (int s = 0; s < 2; s++) {
        t->masks[s] = items_of(items[s], 25);
        t->dist[s] = bytes_of(items[2 + s], DIST_SIZE, MP_BUFFER_READ);
        t->single[s] = bytes_of(items[4 + s], SINGLE_SIZE, MP_BUFFER_READ);
    }
}

static inline uint32_t mask_at(const tables_t *t, int side, int p) {
    return (uint32_t)small(t->masks[side][p]);
}

static inline int lowest_bit(uint32_t m) {
    return __builtin_ctz(m);
}

// _free: a side's enemy camp (South's: points 20..24, North's: 0..4): its
// points not taken by the side's own pieces (camp point k: bit k).
static int free_points(const uint8_t *top, int side) {
    const uint8_t *camp = side ? top : top + 20;
    int own = side ? WHOSE : PRESENT;
    int free = 0;
    for (int k = 0; k < 5; k++) {
        free |= ((camp[k] & WHOSE) != own) << k;
    }
    return free;
}

// No empty point among the five camp points from camp on.
static bool camp_full(const uint8_t *camp) {
    return camp[0] && camp[1] && camp[2] && camp[3] && camp[4];
}

// The best capture against a side: the value of a piece of its (own) that
// the other side attacks (att), less a piece if it is defended (defence).
static int best_capture(const int *vals, uint32_t att, uint32_t own, uint32_t defence) {
    int gain = 0;
    for (uint32_t m = att & own; m; m &= m - 1) {
        int v = vals[lowest_bit(m)] - ((defence & (m & -m)) ? PIECE : 0);
        if (v > gain) {
            gain = v;
        }
    }
    return gain;
}

// eval_scored(g, tables, side): classic and standard (jarmo/evaluation.py).
// (The Python writes each side's branch out for speed; here a side is an index.)
static mp_obj_t eval_scored(mp_obj_t g, mp_obj_t tables_obj, mp_obj_t side_obj) {
    int side = small(side_obj);
    tables_t tb;
    tables_of(tables_obj, &tb);
    const uint8_t *top = byte_attr(g, MP_QSTR_top, 25, MP_BUFFER_READ);
    const uint8_t *under = byte_attr(g, MP_QSTR_under, 25, MP_BUFFER_READ);
    const uint8_t *pool = byte_attr(g, MP_QSTR_pool, 2, MP_BUFFER_READ);
    bool classic = true_attr(g, MP_QSTR_marks);
    bool heroes = true_attr(g, MP_QSTR_heroes);
    int camp = small(items_of(attr(g, MP_QSTR_row), AI_CAMP + 1)[AI_CAMP]);
    // each side's row of the distance tables, and whether its own camp is full
    int off[2] = { free_points(top, 0) * 25, free_points(top, 1) * 25 };
    bool own_full[2] = { camp_full(top), camp_full(top + 20) };
    bool guard[2], recall[2];
    for (int s = 0; s < 2; s++) {
        guard[s] = pool[s] && !classic;
        recall[s] = classic && pool[s] && !own_full[s];   // room in its own camp to recall to
    }
    int vals[25];
    int score[2] = {0, 0};
    uint32_t att[2] = {0, 0}, own[2] = {0, 0};
    for (int p = 0; p < 25; p++) {
        int q = top[p];
        if (!q) {
            continue;
        }
        int s = (q & NORTH) ? 1 : 0;
        int v;
        if (s ? p >= 5 : p < 20) {             // not on its enemy camp
            att[s] |= mask_at(&tb, s, p);
            v = PIECE + prog_weight[tb.dist[s][off[s] + p] & 15];
            if ((q & GUARD) && guard[s]) {
                v += GUARD_RECOVERS;
            }
        } else {
            v = camp;
            if (recall[s] && (q & MARK)) {
                v += RECALL_READY;
            }
        }
        score[s] += v;
        own[s] |= 1u << p;
        vals[p] = v;
        if (heroes && under[p]) {
            score[(under[p] & NORTH) ? 1 : 0] += PIECE;
        }
    }
    int gain0 = best_capture(vals, att[0], own[1], att[1]);
    int gain1 = best_capture(vals, att[1], own[0], att[0]);
    const uint8_t *held = byte_attr(g, MP_QSTR_held_count, 2, MP_BUFFER_READ);
    for (int s = 0; s < 2; s++) {
        score[s] += held[s] * (own_full[s] ? HELD - 20 : HELD) + pool[s] * POOL;
    }
    if (true_attr(g, MP_QSTR_markers_on)) {
        mp_obj_t *markers = items_of(attr(g, MP_QSTR_marker_points), 2);
        for (int k = 0; k < 2; k++) {
            int q = top[small(markers[k]) % 25];
            int s = (q & NORTH) ? 1 : 0;
            if (q && pool[s]) {
                score[s] += MARKER;
            }
        }
    }
    mp_obj_t list = MP_STATE_VM(jarmo_targets);
    if (list != MP_OBJ_NULL) {
        mp_obj_subscr(list, MP_OBJ_NEW_SMALL_INT(0), MP_OBJ_NEW_SMALL_INT(att[side] & ~own[side]));
    }
    if (side) {
        return MP_OBJ_NEW_SMALL_INT(score[1] - score[0] + gain1 * 7 / 8 - gain0 / 4);
    }
    return MP_OBJ_NEW_SMALL_INT(score[0] - score[1] + gain0 * 7 / 8 - gain1 / 4);
}
static MP_DEFINE_CONST_FUN_OBJ_3(eval_scored_fun, eval_scored);

// _match: moves the side's n outside pieces need to reach distinct free
// points of its enemy camp, the cheapest (piece, point) pair first.
static int match(const uint8_t *top, const uint8_t *single, const uint8_t *pieces, int side,
    int n, int free) {
    if (!n) {
        return 0;
    }
    uint32_t levels[11] = {0};
    int first = side ? 0 : 20;
    for (int i = 0; i < n; i++) {
        int p = pieces[i] * 5;
        for (int k = 0; k < 5; k++) {
            if (free & (1 << k)) {
                int c = single[p + k] + (top[first + k] ? BLOCKED : 0);
                levels[c > 10 ? 10 : c] |= 1u << (i * 5 + k);
            }
        }
    }
    int total = 0;
    int left = n;
    uint32_t avail = ALL_PAIRS;
    for (int c = 0; c < 11; c++) {
        uint32_t m = levels[c] & avail;
        while (m) {
            int j = lowest_bit(m);
            avail &= ALL_PAIRS & ~((PIECE_PAIRS << (j / 5 * 5)) | (POINT_PAIRS << (j % 5)));
            total += c;
            left -= 1;
            if (!left) {
                return total;
            }
            m &= avail;
        }
    }
    return total + left * UNREACHABLE;
}

// eval_race(g, tables, side): legendary and jasyr (jarmo/evaluation.py).
static mp_obj_t eval_race(mp_obj_t g, mp_obj_t tables_obj, mp_obj_t side_obj) {
    int side = small(side_obj);
    tables_t tb;
    tables_of(tables_obj, &tb);
    const uint8_t *top = byte_attr(g, MP_QSTR_top, 25, MP_BUFFER_READ);
    const uint8_t *under = byte_attr(g, MP_QSTR_under, 25, MP_BUFFER_READ);
    bool heroes = true_attr(g, MP_QSTR_heroes);
    uint8_t outside[2][5];
    int n0 = 0, n1 = 0, need0 = 0, need1 = 0;
    uint32_t att0 = 0, att1 = 0;
    for (int f = 0; f < 25; f++) {
        int q = top[f];
        if (!q) {
            continue;
        }
        if (q & NORTH) {
            if (f >= 5) {
                att1 |= mask_at(&tb, 1, f);
                if (n1 < 5) {
                    outside[1][n1++] = f;
                }
            }
        } else if (f < 20) {
            att0 |= mask_at(&tb, 0, f);
            if (n0 < 5) {
                outside[0][n0++] = f;
            }
        }
        if (heroes && under[f]) {
            if (under[f] & NORTH) {
                need1 += tb.dist[1][FREE_ALL + f] + HOSTAGE_STEPS;
            } else {
                need0 += tb.dist[0][FREE_ALL + f] + HOSTAGE_STEPS;
            }
        }
    }
    need0 += match(top, tb.single[0], outside[0], 0, n0, free_points(top, 0));
    need1 += match(top, tb.single[1], outside[1], 1, n1, free_points(top, 1));
    mp_int_t v = side ? (need0 - need1) * STEP + STEP / 2 : (need1 - need0) * STEP + STEP / 2;
    const uint8_t *held = byte_attr(g, MP_QSTR_held_count, 2, MP_BUFFER_READ);
    const uint8_t *pool = byte_attr(g, MP_QSTR_pool, 2, MP_BUFFER_READ);
    int other = 1 - side;
    int count = side ? n0 : n1;
    if (count == 1 && !held[other] && !pool[other]) {
        int f = outside[other][0];
        uint32_t att = side ? att1 : att0;
        if (((att >> f) & 1) && !under[f]
            && !(true_attr(g, MP_QSTR_taken_held) && (top[f] & GUARD))) {
            const uint8_t *out = byte_attr(g, MP_QSTR_out_count, 2, MP_BUFFER_READ);
            if (5 - pool[other] - out[other] == 1) {
                v += WIN / 4;
            } else if (v < 0) {
                v = 0;
            }
        }
    }
    return MP_OBJ_NEW_SMALL_INT(v);
}
static MP_DEFINE_CONST_FUN_OBJ_3(eval_race_fun, eval_race);

// bind(targets): the list eval_scored writes the mover's target points to.
static mp_obj_t bind(mp_obj_t targets) {
    MP_STATE_VM(jarmo_targets) = targets;
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(bind_fun, bind);

// ---------------------------------------------------------------- search

#define MAXGEN 40        // jarmo/ai.py _MAXGEN: a node's action buffer
#define HIST 319          // _HIST: one side's history entries

static mp_obj_t item(mp_obj_t seq, mp_int_t index) {
    return mp_obj_subscr(seq, MP_OBJ_NEW_SMALL_INT(index), MP_OBJ_SENTINEL);
}

// Node d's ordering keys array (made on first use, as Player._order does).
static int16_t *keys_of(mp_obj_t self, int d) {
    mp_obj_t all = attr(self, MP_QSTR__keys);
    mp_obj_t keys = item(all, d);
    if (keys == mp_const_none) {
        static const uint8_t zeros[2 * MAXGEN];
        mp_obj_t args[2] = { MP_OBJ_NEW_QSTR(MP_QSTR_h), mp_obj_new_bytearray(sizeof(zeros), zeros) };
        keys = MP_OBJ_TYPE_GET_SLOT(&mp_type_array, make_new)(&mp_type_array, 2, 0, args);
        mp_obj_subscr(all, MP_OBJ_NEW_SMALL_INT(d), keys);
    }
    mp_buffer_info_t info;
    mp_get_buffer_raise(keys, &info, MP_BUFFER_WRITE);
    if (info.typecode != 'h' || info.len < 2 * MAXGEN) {
        mp_raise_ValueError(MP_ERROR_TEXT("bad key buffer"));
    }
    return info.buf;
}

// The last iteration's next action if node d is on its line so far, else -1.
static int line_action(mp_obj_t self, int d) {
    mp_obj_t prev = attr(self, MP_QSTR__prev);
    int pv = small(item(prev, d));
    mp_obj_t bufs = attr(self, MP_QSTR__bufs);
    mp_obj_t taken = attr(self, MP_QSTR__i);
    for (int k = 0; k < d; k++) {
        // the action taken at depth k (Python's index -1 included)
        if (small(item(item(bufs, k), small(item(taken, k)) - 1)) != small(item(prev, k))) {
            return -1;
        }
    }
    return pv;
}

// Player._order(d, buf, n, mover, ft): the ordering keys of node d's n
// actions (jarmo/ai.py): the last iteration's line, the table's action,
// the killers, captures, progress towards the enemy camp, history.
static mp_obj_t order(size_t n_args, const mp_obj_t *args) {
    (void)n_args;
    mp_obj_t self = args[0];
    int d = small(args[1]);
    mp_buffer_info_t info;
    mp_get_buffer_raise(args[2], &info, MP_BUFFER_READ);
    const uint16_t *buf = info.buf;
    size_t n = small(args[3]);
    int mover = small(args[4]);
    bool ft = mp_obj_is_true(args[5]);
    if (info.typecode != 'H' || n > info.len / 2 || n > MAXGEN) {
        mp_raise_ValueError(MP_ERROR_TEXT("bad action buffer"));
    }
    int16_t *keys = keys_of(self, d);
    mp_obj_t g = attr(self, MP_QSTR__g);
    const uint8_t *top = byte_attr(g, MP_QSTR_top, 25, MP_BUFFER_READ);
    bool scored = true_attr(g, MP_QSTR_scored);
    const uint8_t *dist = bytes_of(item(attr(self, MP_QSTR__tables), 2 + mover),
        DIST_SIZE, MP_BUFFER_READ);
    mp_obj_t killer = attr(self, MP_QSTR__killer);
    int k1 = small(item(killer, 2 * d));
    int k2 = small(item(killer, 2 * d + 1));
    mp_obj_t hist_obj = attr(self, MP_QSTR__hist);
    const uint8_t *hist = NULL;
    if (hist_obj != mp_const_none) {
        hist = bytes_of(hist_obj, 2 * HIST, MP_BUFFER_READ);
    }
    int hbase = mover * HIST + 6;
    int ttmove = small(attr(self, MP_QSTR__ttmove));
    set_attr(self, MP_QSTR__ttmove, MP_OBJ_NEW_SMALL_INT(-1));
    int pv = -1;
    if (ft && d < small(attr(self, MP_QSTR__prevlen))) {
        pv = line_action(self, d);
    }
    int camp = mover ? 0 : 20;
    int take = scored ? 200 : -50;
    int kdone = scored ? 0 : 5;
    int kplace = scored ? 50 : -100;
    int kother = scored ? 60 : -100;
    for (size_t j = 0; j < n; j++) {
        int c = buf[j];
        int kind = c & KIND_BITS;
        int key;
        if (kind == K_MOVE) {
            int f = (c >> SOURCE) & POINT_BITS;
            int t = c >> TARGET;
            if (t > 24) {
                mp_raise_ValueError(MP_ERROR_TEXT("not a point"));
            }
            key = (dist[FREE_ALL + f] - dist[FREE_ALL + t]) * 10;
            if (top[t]) {
                key += take;
                if (scored && t - camp >= 0 && t - camp < 5) {
                    key += 100;
                }
            }
            if (hist != NULL) {
                key += hist[hbase + f * 12 + t] << 1;     // (at most 318 + 24 * 12 + 24 < 2 * HIST)
            }
        } else if (kind == K_DONE) {
            key = kdone;
        } else if (kind == K_PLACE || kind == K_RECALL) {
            key = kplace;
        } else {
            key = kother;
        }
        if (c == k1) {
            key += 1000;
        } else if (c == k2) {
            key += 900;
        }
        if (c == ttmove) {
            key = 5000;
        }
        if (c == pv) {
            key = 10000;
        }
        keys[j] = key;
    }
    return mp_const_none;
}
METHOD(order_fun, order, 6, 6);

static const mp_rom_map_elem_t jarmo_module_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR__jarmo) },
    { MP_ROM_QSTR(MP_QSTR_gen_into), MP_ROM_PTR(&gen_into_fun) },
    { MP_ROM_QSTR(MP_QSTR_repeat_move), MP_ROM_PTR(&repeat_move_fun) },
    { MP_ROM_QSTR(MP_QSTR_can_move), MP_ROM_PTR(&can_move_fun) },
    { MP_ROM_QSTR(MP_QSTR_move_piece), MP_ROM_PTR(&move_piece_fun) },
    { MP_ROM_QSTR(MP_QSTR_unmove_piece), MP_ROM_PTR(&unmove_piece_fun) },
    { MP_ROM_QSTR(MP_QSTR_undo_code), MP_ROM_PTR(&undo_code_fun) },
    { MP_ROM_QSTR(MP_QSTR_do_code), MP_ROM_PTR(&do_code_fun) },
    { MP_ROM_QSTR(MP_QSTR__end_check), MP_ROM_PTR(&end_check_fun) },
    { MP_ROM_QSTR(MP_QSTR_all_in_camp), MP_ROM_PTR(&all_in_camp_fun) },
    { MP_ROM_QSTR(MP_QSTR_eval_scored), MP_ROM_PTR(&eval_scored_fun) },
    { MP_ROM_QSTR(MP_QSTR_eval_race), MP_ROM_PTR(&eval_race_fun) },
    { MP_ROM_QSTR(MP_QSTR_bind), MP_ROM_PTR(&bind_fun) },
    { MP_ROM_QSTR(MP_QSTR__order), MP_ROM_PTR(&order_fun) },
};
static MP_DEFINE_CONST_DICT(jarmo_module_globals, jarmo_module_globals_table);

const mp_obj_module_t jarmo_c_module = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&jarmo_module_globals,
};

MP_REGISTER_MODULE(MP_QSTR__jarmo, jarmo_c_module);

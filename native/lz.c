// omm-lz encoder in C: the same algorithm as LzEncoder in src/index-format/lz-codec.ts, step for
// step, so both write the same bytes for the same dictionary and record (the compile is
// deterministic whichever runs; lz-native.test.ts compares them). lz-codec.ts documents the
// format and the choices; this file only makes them about 5x cheaper.
#include <node_api.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MIN_MATCH 4
#define ENCODER_MIN_MATCH 5
#define MAX_DISTANCE 65535
#define DICTIONARY_HASH_SHIFT (32 - 16)
#define RECORD_HASH_BITS 12
#define RECORD_HASH_SHIFT (32 - RECORD_HASH_BITS)
#define HASH_MULTIPLIER 2654435761u
#define NONE 0xffff
#define DEPTH 4

typedef struct {
  uint32_t dictionary_length;
  uint8_t* window;
  size_t window_length;
  uint16_t dictionary_head[1 << 16];
  uint16_t* dictionary_previous;
  int32_t record_head[1 << RECORD_HASH_BITS];
  int32_t record_stamp[1 << RECORD_HASH_BITS];
  int32_t generation;
} lz_encoder;

static inline uint32_t word_at(const uint8_t* p) {
  uint32_t w;
  memcpy(&w, p, 4);
  return w;  // little-endian hosts only (checked in init)
}

static inline uint32_t hash_of(uint32_t word) { return word * HASH_MULTIPLIER; }

static void encoder_free(napi_env env, void* data, void* hint) {
  (void)env;
  (void)hint;
  lz_encoder* e = data;
  free(e->window);
  free(e->dictionary_previous);
  free(e);
}

// Eight bytes at a time, the first differing byte found from the XOR (the same length as the
// JavaScript's four-then-one loop).
static uint32_t match_length(const uint8_t* w, uint32_t a, uint32_t b, uint32_t max) {
  uint32_t l = MIN_MATCH;
  while (l + 8 <= max) {
    uint64_t x, y;
    memcpy(&x, w + a + l, 8);
    memcpy(&y, w + b + l, 8);
    if (x != y) return l + (uint32_t)(__builtin_ctzll(x ^ y) >> 3);
    l += 8;
  }
  while (l < max && w[a + l] == w[b + l]) l++;
  return l;
}

static size_t length_tail(uint8_t* out, size_t o, uint32_t rest) {
  for (; rest >= 255; rest -= 255) out[o++] = 255;
  out[o++] = (uint8_t)rest;
  return o;
}

static size_t sequence(uint8_t* out, size_t o, const uint8_t* w, uint32_t from, uint32_t to, uint32_t match, uint32_t distance) {
  uint32_t literals = to - from;
  uint32_t extra = match - MIN_MATCH;
  out[o++] = (uint8_t)(((literals < 15 ? literals : 15) << 4) | (match == 0 ? 0 : extra < 15 ? extra : 15));
  if (literals >= 15) o = length_tail(out, o, literals - 15);
  memcpy(out + o, w + from, literals);
  o += literals;
  if (match == 0) return o;
  out[o++] = distance & 0xff;
  out[o++] = (uint8_t)(distance >> 8);
  if (extra >= 15) o = length_tail(out, o, extra - 15);
  return o;
}

// create(dictionary: Uint8Array) -> external encoder
static napi_value create(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  napi_typedarray_type type;
  size_t length = 0;
  void* data = NULL;
  if (argc < 1 || napi_get_typedarray_info(env, argv[0], &type, &length, &data, NULL, NULL) != napi_ok || type != napi_uint8_array) {
    napi_throw_type_error(env, "E_LZ", "create(dictionary): a Uint8Array");
    return NULL;
  }
  if (length >= NONE) {
    napi_throw_range_error(env, "E_LZ", "an omm-lz dictionary holds at most 65534 bytes");
    return NULL;
  }
  lz_encoder* e = calloc(1, sizeof *e);
  if (!e) goto oom;
  e->dictionary_length = (uint32_t)length;
  e->window_length = length + 4096 + 8;
  e->window = calloc(e->window_length, 1);
  e->dictionary_previous = calloc(length > 0 ? length : 1, sizeof(uint16_t));
  if (!e->window || !e->dictionary_previous) {
    free(e->window);
    free(e->dictionary_previous);
    free(e);
    goto oom;
  }
  if (length > 0) memcpy(e->window, data, length);
  memset(e->dictionary_head, 0xff, sizeof e->dictionary_head);
  for (uint32_t i = 0; i + MIN_MATCH <= length; i++) {
    uint32_t h = hash_of(word_at(e->window + i)) >> DICTIONARY_HASH_SHIFT;
    e->dictionary_previous[i] = e->dictionary_head[h];
    e->dictionary_head[h] = (uint16_t)i;
  }
  napi_value result;
  napi_create_external(env, e, encoder_free, NULL, &result);
  return result;
oom:
  napi_throw_error(env, "E_LZ", "out of memory");
  return NULL;
}

// encode(encoder, record: Uint8Array, out: Uint8Array) -> bytes written to out (out must hold
// record.length + ceil(record.length / 255) + 16 bytes)
static napi_value encode(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  lz_encoder* e = NULL;
  napi_typedarray_type type;
  size_t record_length = 0, out_length = 0;
  void* record = NULL;
  void* out_data = NULL;
  if (argc < 3 || napi_get_value_external(env, argv[0], (void**)&e) != napi_ok ||
      napi_get_typedarray_info(env, argv[1], &type, &record_length, &record, NULL, NULL) != napi_ok || type != napi_uint8_array ||
      napi_get_typedarray_info(env, argv[2], &type, &out_length, &out_data, NULL, NULL) != napi_ok || type != napi_uint8_array) {
    napi_throw_type_error(env, "E_LZ", "encode(encoder, record, out): an encoder and two Uint8Arrays");
    return NULL;
  }
  if (out_length < record_length + (record_length + 254) / 255 + 16 || record_length > 0x7fffffff) {
    napi_throw_range_error(env, "E_LZ", "encode: the output buffer is too small for the record");
    return NULL;
  }
  const uint32_t D = e->dictionary_length;
  if (e->window_length < D + record_length + 8) {
    size_t grown = D + record_length + (record_length >> 1) + 8;
    uint8_t* window = realloc(e->window, grown);
    if (!window) {
      napi_throw_error(env, "E_LZ", "out of memory");
      return NULL;
    }
    e->window = window;
    e->window_length = grown;
  }
  if (++e->generation == 0x7fffffff) {
    memset(e->record_stamp, 0, sizeof e->record_stamp);
    e->generation = 1;
  }
  const int32_t generation = e->generation;
  uint8_t* w = e->window;
  uint8_t* out = out_data;
  memcpy(w + D, record, record_length);
  memset(w + D + record_length, 0, 8);
  const uint32_t end = D + (uint32_t)record_length;
  const int64_t last_start = (int64_t)end - MIN_MATCH;
  size_t o = 0;
  for (uint32_t n = (uint32_t)record_length;; n >>= 7) {
    if (n < 0x80) {
      out[o++] = (uint8_t)n;
      break;
    }
    out[o++] = (uint8_t)((n & 0x7f) | 0x80);
  }
  uint32_t i = D;
  uint32_t literals_from = D;
  while ((int64_t)i <= last_start) {
    const uint32_t word = word_at(w + i);
    const uint32_t hashed = hash_of(word);
    const uint32_t r = hashed >> RECORD_HASH_SHIFT;
    uint32_t best_length = 0;
    uint32_t best_from = 0;
    if (e->record_stamp[r] == generation) {
      uint32_t p = (uint32_t)e->record_head[r];
      if (i - p <= MAX_DISTANCE && word_at(w + p) == word) {
        best_length = match_length(w, p, i, end - i);
        best_from = p;
      }
    }
    e->record_head[r] = (int32_t)i;
    e->record_stamp[r] = generation;
    uint32_t p = e->dictionary_head[hashed >> DICTIONARY_HASH_SHIFT];
    for (int tries = DEPTH; p != NONE && tries > 0 && i - p <= MAX_DISTANCE; tries--) {
      if (word_at(w + p) == word && w[p + best_length] == w[i + best_length]) {
        uint32_t max = end - i < D - p ? end - i : D - p;
        uint32_t l = match_length(w, p, i, max);
        if (l > best_length) {
          best_length = l;
          best_from = p;
        }
      }
      p = e->dictionary_previous[p];
    }
    if (best_length < ENCODER_MIN_MATCH) {
      i++;
      continue;
    }
    o = sequence(out, o, w, literals_from, i, best_length, i - best_from);
    i += best_length;
    literals_from = i;
    int64_t inside = (int64_t)i - 2;
    if (inside <= last_start) {
      uint32_t hi = hash_of(word_at(w + inside)) >> RECORD_HASH_SHIFT;
      e->record_head[hi] = (int32_t)inside;
      e->record_stamp[hi] = generation;
    }
  }
  o = sequence(out, o, w, literals_from, end, 0, 0);
  napi_value result;
  napi_create_uint32(env, (uint32_t)o, &result);
  return result;
}

napi_value omm_lz_init(napi_env env, napi_value exports) {
  const uint16_t probe = 1;
  if (*(const uint8_t*)&probe != 1) return exports;  // big-endian: no native encoder, the JS one runs
  napi_property_descriptor props[] = {
      {"lzEncoderCreate", NULL, create, NULL, NULL, NULL, napi_default, NULL},
      {"lzEncode", NULL, encode, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

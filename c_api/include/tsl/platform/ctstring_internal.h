/* Sluice's TensorFlow C API: the 24-byte TF_TString layout and the static inline code over it. */
#ifndef TENSORFLOW_TSL_PLATFORM_CTSTRING_INTERNAL_H_
#define TENSORFLOW_TSL_PLATFORM_CTSTRING_INTERNAL_H_

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The encoding of the size fields depends on the byte order (see TF_TString_ToInternalSizeT). */
#if (defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
     __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) ||                  \
    defined(_WIN32)
#define TF_TSTRING_LITTLE_ENDIAN 1
#elif defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define TF_TSTRING_LITTLE_ENDIAN 0
#else
#error "TF_TString: cannot tell the byte order of this target."
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Reverses the byte order of a 32-bit value. */
static inline uint32_t TF_swap32(uint32_t host_int) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_bswap32(host_int);
#else
  return ((host_int & 0x000000FFu) << 24) | ((host_int & 0x0000FF00u) << 8) |
         ((host_int & 0x00FF0000u) >> 8) | ((host_int & 0xFF000000u) >> 24);
#endif
}

/* The fields of an OFFSET string are little-endian on every target; this reads one. */
#if TF_TSTRING_LITTLE_ENDIAN
#define TF_le32toh(x) (x)
#else
#define TF_le32toh(x) TF_swap32(x)
#endif

/* `i` rounded up to a multiple of 16. */
static inline size_t TF_align16(size_t i) { return (i + 0xF) & ~(size_t)0xF; }

static inline size_t TF_max(size_t a, size_t b) { return a > b ? a : b; }
static inline size_t TF_min(size_t a, size_t b) { return a < b ? a : b; }

/* The four representations of a TF_TString, kept in the low two bits of its first byte. */
typedef enum TF_TString_Type {
  TF_TSTR_SMALL = 0x00,  /* up to 22 bytes stored inside the struct, NUL-terminated */
  TF_TSTR_LARGE = 0x01,  /* a malloc'd, NUL-terminated buffer owned by the string */
  TF_TSTR_OFFSET = 0x02, /* bytes at a 32-bit offset from the struct's own address, not owned */
  TF_TSTR_VIEW = 0x03,   /* a pointer to bytes the string does not own (or shares, see below) */
  TF_TSTR_TYPE_MASK = 0x03
} TF_TString_Type;

/* A reference-counted owner that a VIEW string may hold a reference to, so that the viewed bytes
 * live as long as the view. `ref` adds a reference; `unref` drops one (its result tells whether
 * that was the last; the string ignores it). `obj` is the owner's own object. */
struct TStringOwnerCApi;
typedef void (*tstring_owner_ref_t)(struct TStringOwnerCApi *self);
typedef bool (*tstring_owner_unref_t)(struct TStringOwnerCApi *self);
typedef struct TStringOwnerCApi {
  tstring_owner_ref_t ref;
  tstring_owner_unref_t unref;
  void *obj;
} TStringOwnerCApi;

/* LARGE: `size` is the encoded size (see TF_TString_ToInternalSizeT); the buffer at `ptr` has
 * room for `cap` bytes plus a NUL. */
typedef struct TF_TString_Large {
  size_t size;
  size_t cap;
  char *ptr;
} TF_TString_Large;

/* OFFSET: three little-endian words. `size` is the byte count shifted left by 2, ORed with
 * TF_TSTR_OFFSET; the bytes start `offset` bytes after the TF_TString's own first byte. `count`
 * is not used by these functions. */
typedef struct TF_TString_Offset {
  uint32_t size;
  uint32_t offset;
  uint32_t count;
} TF_TString_Offset;

/* VIEW: `size` is encoded as for LARGE; `ptr` points at the bytes, which need not be
 * NUL-terminated; `owner_ref`, when not NULL, holds one reference on their owner. */
typedef struct TF_TString_View {
  size_t size;
  const char *ptr;
  TStringOwnerCApi *owner_ref;
} TF_TString_View;

typedef struct TF_TString_Raw {
  uint8_t raw[24];
} TF_TString_Raw;

typedef union TF_TString_Union {
  TF_TString_Large large;
  TF_TString_Offset offset;
  TF_TString_View view;
  TF_TString_Raw raw;
} TF_TString_Union;

/* The most bytes a SMALL string holds: the struct less its size byte and the NUL. */
enum {
  TF_TString_SmallCapacity = (sizeof(TF_TString_Union) - sizeof(char) - sizeof(uint8_t)),
};

/* SMALL: `size` is the byte count shifted left by 2 (the low bits, 0, are the type). */
typedef struct TF_TString_Small {
  uint8_t size;
  char str[TF_TString_SmallCapacity + sizeof(char)];
} TF_TString_Small;

/* One string: 24 bytes whose first byte's low two bits give the representation. This is the
 * element of a TF_STRING tensor. Call TF_TString_Init before any other function, and
 * TF_TString_Dealloc when done. (The small member is spelled `smll` because some Windows headers
 * define `small` as a macro.) */
typedef struct TF_TString {
  union {
    TF_TString_Small smll;
    TF_TString_Large large;
    TF_TString_Offset offset;
    TF_TString_View view;
    TF_TString_Raw raw;
  } u;
} TF_TString;

/* Fails to compile (an array of negative size) where the layout is not the 24 bytes above. */
typedef char TF_TString_LayoutCheck[(CHAR_BIT == 8 && sizeof(TF_TString) == 24) ? 1 : -1];

static inline TF_TString_Type TF_TString_GetType(const TF_TString *str) {
  return (TF_TString_Type)(str->u.raw.raw[0] & TF_TSTR_TYPE_MASK);
}

/* The size fields of LARGE and VIEW strings are size_t values whose first byte in memory carries
 * the type in its low two bits. On a little-endian target that byte is the least significant
 * one, so the field is the size shifted left by 2, ORed with the type. On a big-endian target it
 * is the most significant byte: the low 56 bits of the size stay in place, and the top byte holds
 * size bits 56..61 above the two type bits. These two functions decode and encode the field. */
static inline size_t TF_TString_ToActualSizeT(size_t size) {
#if TF_TSTRING_LITTLE_ENDIAN
  return size >> 2;
#else
  const size_t top_byte = ~((~(size_t)0) >> 8);
  return ((size & (top_byte << 2)) >> 2) | (size & ~top_byte);
#endif
}

static inline size_t TF_TString_ToInternalSizeT(size_t size, TF_TString_Type type) {
#if TF_TSTRING_LITTLE_ENDIAN
  return (size << 2) | (size_t)type;
#else
  const size_t top_byte = ~((~(size_t)0) >> 8);
  return ((size << 2) & top_byte) | (size & ~top_byte) |
         ((size_t)type << ((sizeof(size_t) - 1) * 8));
#endif
}

static inline void TF_TString_Init(TF_TString *str) {
  memset(str->u.raw.raw, 0, sizeof(str->u.raw.raw));
}

static inline void TF_TString_Dealloc(TF_TString *str) {
  switch (TF_TString_GetType(str)) {
    case TF_TSTR_LARGE:
      if (str->u.large.ptr == NULL) return;
      free(str->u.large.ptr);
      break;
    case TF_TSTR_VIEW:
      if (str->u.view.owner_ref == NULL) return;
      (void)str->u.view.owner_ref->unref(str->u.view.owner_ref);
      break;
    default:
      return; /* SMALL and OFFSET strings own nothing. */
  }
  TF_TString_Init(str);
}

static inline size_t TF_TString_GetSize(const TF_TString *str) {
  switch (TF_TString_GetType(str)) {
    case TF_TSTR_SMALL:
      return str->u.smll.size >> 2;
    case TF_TSTR_LARGE:
      return TF_TString_ToActualSizeT(str->u.large.size);
    case TF_TSTR_OFFSET:
      return TF_le32toh(str->u.offset.size) >> 2;
    case TF_TSTR_VIEW:
      return TF_TString_ToActualSizeT(str->u.view.size);
    default:
      return 0;
  }
}

static inline size_t TF_TString_GetCapacity(const TF_TString *str) {
  switch (TF_TString_GetType(str)) {
    case TF_TSTR_SMALL:
      return TF_TString_SmallCapacity;
    case TF_TSTR_LARGE:
      return str->u.large.cap;
    default:
      return 0; /* OFFSET and VIEW strings are read-only. */
  }
}

static inline const char *TF_TString_GetDataPointer(const TF_TString *str) {
  switch (TF_TString_GetType(str)) {
    case TF_TSTR_SMALL:
      return str->u.smll.str;
    case TF_TSTR_LARGE:
      return str->u.large.ptr;
    case TF_TSTR_OFFSET:
      return (const char *)str + TF_le32toh(str->u.offset.offset);
    case TF_TSTR_VIEW:
      return str->u.view.ptr;
    default:
      return NULL;
  }
}

/* Makes `str` an owned string (SMALL up to TF_TString_SmallCapacity bytes, LARGE above) of
 * `new_size` bytes, keeping its first min(old size, new_size) bytes, and returns its buffer.
 * A LARGE buffer has capacity 16k - 1 for some k: it grows to fit and shrinks to about half when
 * the string drops below half the capacity. */
static inline char *TF_TString_ResizeUninitialized(TF_TString *str, size_t new_size) {
  const TF_TString_Type type = TF_TString_GetType(str);
  const size_t size = TF_TString_GetSize(str);
  const size_t cap = TF_TString_GetCapacity(str);
  const char *data = TF_TString_GetDataPointer(str);
  TStringOwnerCApi *owner = type == TF_TSTR_VIEW ? str->u.view.owner_ref : NULL;
  char *old_heap = type == TF_TSTR_LARGE ? str->u.large.ptr : NULL;
  const size_t kept = TF_min(size, new_size);
  size_t new_cap;
  char *buf;

  if (new_size <= TF_TString_SmallCapacity) {
    /* Copy first: the LARGE and VIEW fields that hold the old pointer are overwritten. */
    if (type != TF_TSTR_SMALL && kept > 0) memmove(str->u.smll.str, data, kept);
    str->u.smll.size = (uint8_t)((new_size << 2) | TF_TSTR_SMALL);
    str->u.smll.str[new_size] = '\0';
    if (type == TF_TSTR_LARGE) {
      free(old_heap);
    } else if (owner != NULL) {
      (void)owner->unref(owner);
    }
    return str->u.smll.str;
  }

  if (new_size > cap) {
    new_cap = TF_align16(new_size + 1) - 1;
  } else if (new_size < size && new_size < cap / 2) {
    new_cap = TF_align16(cap / 2 + 1) - 1;
  } else {
    new_cap = cap; /* only a LARGE string gets here: the others have cap < new_size */
  }

  if (type == TF_TSTR_LARGE) {
    buf = new_cap == cap ? str->u.large.ptr : (char *)realloc(str->u.large.ptr, new_cap + 1);
  } else {
    buf = (char *)malloc(new_cap + 1);
    if (kept > 0) memcpy(buf, data, kept);
    if (owner != NULL) (void)owner->unref(owner);
  }
  str->u.large.size = TF_TString_ToInternalSizeT(new_size, TF_TSTR_LARGE);
  str->u.large.cap = new_cap;
  str->u.large.ptr = buf;
  buf[new_size] = '\0';
  return buf;
}

static inline char *TF_TString_GetMutableDataPointer(TF_TString *str) {
  switch (TF_TString_GetType(str)) {
    case TF_TSTR_SMALL:
      return str->u.smll.str;
    case TF_TSTR_LARGE:
      return str->u.large.ptr;
    case TF_TSTR_OFFSET:
    case TF_TSTR_VIEW:
      /* Read-only representations become an owned copy of the same size first. */
      return TF_TString_ResizeUninitialized(str, TF_TString_GetSize(str));
    default:
      return NULL;
  }
}

static inline void TF_TString_Reserve(TF_TString *str, size_t new_cap) {
  const TF_TString_Type type = TF_TString_GetType(str);
  size_t size;
  const char *data;
  TStringOwnerCApi *owner;
  char *buf;

  /* A SMALL string has this room already; a VIEW or OFFSET one is copied when it is resized. */
  if (new_cap <= TF_TString_SmallCapacity) return;
  /* Shrinking is left to resizing. */
  if (type == TF_TSTR_LARGE && new_cap <= str->u.large.cap) return;

  size = TF_TString_GetSize(str);
  data = TF_TString_GetDataPointer(str);
  new_cap = TF_align16(TF_max(new_cap, size) + 1) - 1;
  if (type == TF_TSTR_LARGE) {
    str->u.large.ptr = (char *)realloc(str->u.large.ptr, new_cap + 1);
    str->u.large.cap = new_cap;
    return;
  }

  /* SMALL, VIEW or OFFSET: copy the bytes out before the LARGE fields overwrite the struct. */
  owner = type == TF_TSTR_VIEW ? str->u.view.owner_ref : NULL;
  buf = (char *)malloc(new_cap + 1);
  memcpy(buf, data, size);
  buf[size] = '\0';
  if (owner != NULL) (void)owner->unref(owner);
  str->u.large.size = TF_TString_ToInternalSizeT(size, TF_TSTR_LARGE);
  str->u.large.cap = new_cap;
  str->u.large.ptr = buf;
}

static inline void TF_TString_ReserveAmortized(TF_TString *str, size_t new_cap) {
  const size_t cap = TF_TString_GetCapacity(str);
  if (new_cap > cap) TF_TString_Reserve(str, TF_max(new_cap, 2 * cap));
}

static inline char *TF_TString_Resize(TF_TString *str, size_t new_size, char c) {
  const size_t size = TF_TString_GetSize(str);
  char *buf = TF_TString_ResizeUninitialized(str, new_size);
  if (new_size > size) memset(buf + size, c, new_size - size);
  return buf;
}

static inline void TF_TString_AssignViewWithOwner(TF_TString *dst, const char *src, size_t size,
                                                  TStringOwnerCApi *owner_ref) {
  /* Take the new reference before dropping the old one, which may be on the same owner. */
  if (owner_ref != NULL) owner_ref->ref(owner_ref);
  TF_TString_Dealloc(dst);
  dst->u.view.size = TF_TString_ToInternalSizeT(size, TF_TSTR_VIEW);
  dst->u.view.ptr = src;
  dst->u.view.owner_ref = owner_ref;
}

static inline void TF_TString_AssignView(TF_TString *dst, const char *src, size_t size) {
  TF_TString_AssignViewWithOwner(dst, src, size, NULL);
}

static inline void TF_TString_AppendN(TF_TString *dst, const char *src, size_t src_size) {
  size_t size;
  char *buf;

  if (src_size == 0) return;
  size = TF_TString_GetSize(dst);
  TF_TString_ReserveAmortized(dst, size + src_size);
  buf = TF_TString_ResizeUninitialized(dst, size + src_size);
  memcpy(buf + size, src, src_size);
}

static inline void TF_TString_Append(TF_TString *dst, const TF_TString *src) {
  TF_TString_AppendN(dst, TF_TString_GetDataPointer(src), TF_TString_GetSize(src));
}

static inline void TF_TString_Copy(TF_TString *dst, const char *src, size_t size) {
  char *buf = TF_TString_ResizeUninitialized(dst, size);
  if (size > 0) memcpy(buf, src, size);
}

static inline void TF_TString_Assign(TF_TString *dst, const TF_TString *src) {
  if (dst == src) return;
  switch (TF_TString_GetType(src)) {
    case TF_TSTR_SMALL:
      TF_TString_Dealloc(dst);
      *dst = *src;
      return;
    case TF_TSTR_LARGE:
      TF_TString_Dealloc(dst);
      TF_TString_Init(dst);
      TF_TString_Copy(dst, TF_TString_GetDataPointer(src), TF_TString_GetSize(src));
      return;
    case TF_TSTR_OFFSET:
      TF_TString_AssignView(dst, TF_TString_GetDataPointer(src), TF_TString_GetSize(src));
      return;
    case TF_TSTR_VIEW:
      if (src->u.view.owner_ref != NULL) src->u.view.owner_ref->ref(src->u.view.owner_ref);
      TF_TString_Dealloc(dst);
      *dst = *src;
      return;
    default:
      return;
  }
}

static inline void TF_TString_Move(TF_TString *dst, TF_TString *src) {
  if (dst == src) return;
  TF_TString_Dealloc(dst);
  switch (TF_TString_GetType(src)) {
    case TF_TSTR_SMALL:
      *dst = *src;
      return;
    case TF_TSTR_LARGE:
    case TF_TSTR_VIEW:
      *dst = *src;
      TF_TString_Init(src);
      return;
    case TF_TSTR_OFFSET:
      TF_TString_AssignView(dst, TF_TString_GetDataPointer(src), TF_TString_GetSize(src));
      return;
    default:
      return;
  }
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_TSL_PLATFORM_CTSTRING_INTERNAL_H_ */

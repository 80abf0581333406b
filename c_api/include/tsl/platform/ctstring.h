/* Sluice's TensorFlow C API: TF_TString, the string type of TF_STRING tensors, as C functions. */
#ifndef TENSORFLOW_TSL_PLATFORM_CTSTRING_H_
#define TENSORFLOW_TSL_PLATFORM_CTSTRING_H_

#include <stdint.h>
#include <stdlib.h>

#include "tsl/platform/ctstring_internal.h"

/* All functions are static inline: the layout is compiled into the caller, so strings built by
 * one library are read by another that was compiled against the same layout.
 *
 * A TF_TString is one of four types (TF_TString_GetType):
 *   SMALL   up to TF_TString_SmallCapacity (22) bytes inside the struct, no heap memory;
 *   LARGE   a heap buffer from malloc that the string owns and TF_TString_Dealloc frees;
 *   OFFSET  bytes at an offset from the TF_TString's own address (a string tensor mapped from a
 *           file); not owned, and only to be used on data that has been validated;
 *   VIEW    a pointer to bytes the string does not own (optionally holding a reference on
 *           their owner).
 * OFFSET and VIEW strings are read-only: GetMutableDataPointer, Resize, Reserve and Append first
 * turn them into an owned SMALL or LARGE copy, leaving the viewed bytes untouched. The bytes of
 * a string need not be NUL-terminated, though SMALL and LARGE strings always are. */

#ifdef __cplusplus
extern "C" {
#endif

/* Makes `str` an empty SMALL string (all 24 bytes zero). Call it before any other function. */
static inline void TF_TString_Init(TF_TString *str);

/* Releases what `str` owns: frees a LARGE buffer, or drops a VIEW's owner reference; either way
 * `str` becomes empty. Leaves SMALL, OFFSET and unowned VIEW strings as they are. */
static inline void TF_TString_Dealloc(TF_TString *str);

/* Sets the size of `str` to `new_size`, keeping the leading bytes and filling any new ones with
 * `c`. Returns the writable buffer of the now owned (SMALL or LARGE) string. */
static inline char *TF_TString_Resize(TF_TString *str, size_t new_size, char c);

/* As TF_TString_Resize, but leaves new bytes uninitialized, for a caller about to write them. */
static inline char *TF_TString_ResizeUninitialized(TF_TString *str, size_t new_size);

/* Ensures the buffer has room for `new_cap` bytes without changing the size or contents. Makes a
 * LARGE string when `new_cap` exceeds TF_TString_SmallCapacity; never shrinks. Bytes between the
 * size and the capacity are not yours to write until a Resize covers them. */
static inline void TF_TString_Reserve(TF_TString *str, size_t new_cap);

/* As TF_TString_Reserve, but when it grows the buffer it at least doubles the capacity, so that
 * repeated appends take amortized constant time per byte. */
static inline void TF_TString_ReserveAmortized(TF_TString *str, size_t new_cap);

/* Returns the number of bytes in `str`. */
static inline size_t TF_TString_GetSize(const TF_TString *str);

/* Returns how many bytes `str` can hold without reallocating: TF_TString_SmallCapacity for SMALL,
 * the buffer's capacity for LARGE, 0 for the read-only OFFSET and VIEW. */
static inline size_t TF_TString_GetCapacity(const TF_TString *str);

/* Returns the representation of `str` (the low two bits of its first byte). */
static inline TF_TString_Type TF_TString_GetType(const TF_TString *str);

/* Returns the first byte of `str`'s contents. Not necessarily NUL-terminated. */
static inline const char *TF_TString_GetDataPointer(const TF_TString *str);

/* Returns a writable pointer to the contents, first copying an OFFSET or VIEW string into an
 * owned one. */
static inline char *TF_TString_GetMutableDataPointer(TF_TString *str);

/* Makes `dst` a VIEW of `size` bytes at `src`, without copying; whatever `dst` owned is released.
 * `src` must outlive `dst` (or its next change). */
static inline void TF_TString_AssignView(TF_TString *dst, const char *src, size_t size);

/* As TF_TString_AssignView, and `dst` takes a reference on `owner_ref` (when not NULL), which
 * TF_TString_Dealloc or the next change of `dst` drops again. */
static inline void TF_TString_AssignViewWithOwner(TF_TString *dst, const char *src, size_t size,
                                                  TStringOwnerCApi *owner_ref);

/* Appends the contents of `src` (or `size` bytes at `src`) to `dst`, which becomes owned if it
 * was not. `src` must not point into memory that `dst` owns. */
static inline void TF_TString_Append(TF_TString *dst, const TF_TString *src);
static inline void TF_TString_AppendN(TF_TString *dst, const char *src, size_t size);

/* Makes `dst` an owned copy (SMALL or LARGE) of `size` bytes at `src`, which must not point into
 * memory that `dst` owns. */
static inline void TF_TString_Copy(TF_TString *dst, const char *src, size_t size);

/* Makes `dst` equal to `src`, releasing what `dst` owned: a SMALL or VIEW `src` is copied as is
 * (a VIEW with an owner adds a reference), a LARGE one into a new buffer, and an OFFSET one
 * becomes a VIEW of the same bytes. */
static inline void TF_TString_Assign(TF_TString *dst, const TF_TString *src);

/* Moves `src` into `dst` in constant time, releasing what `dst` owned. A LARGE or VIEW `src` is
 * left empty; a SMALL one keeps its (copied) contents; an OFFSET one stays and `dst` becomes a
 * VIEW of its bytes. */
static inline void TF_TString_Move(TF_TString *dst, TF_TString *src);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_TSL_PLATFORM_CTSTRING_H_ */

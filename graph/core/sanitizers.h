// Which sanitizer this translation unit is built for, the same under GCC and Clang: GCC
// defines __SANITIZE_ADDRESS__ and __SANITIZE_THREAD__, Clang 14 answers only through
// __has_feature. Code that must step aside for a sanitizer (block caches that would hide a
// use after free from AddressSanitizer, tests of glibc's malloc) tests these macros.
#ifndef SLUICE_GRAPH_CORE_SANITIZERS_H_
#define SLUICE_GRAPH_CORE_SANITIZERS_H_

#if defined(__SANITIZE_ADDRESS__)
#define SLUICE_ADDRESS_SANITIZER 1
#endif
#if defined(__SANITIZE_THREAD__)
#define SLUICE_THREAD_SANITIZER 1
#endif

#if defined(__has_feature)
#if __has_feature(address_sanitizer) && !defined(SLUICE_ADDRESS_SANITIZER)
#define SLUICE_ADDRESS_SANITIZER 1
#endif
#if __has_feature(thread_sanitizer) && !defined(SLUICE_THREAD_SANITIZER)
#define SLUICE_THREAD_SANITIZER 1
#endif
#endif

#endif  // SLUICE_GRAPH_CORE_SANITIZERS_H_

/* Sluice's TensorFlow C API: TF_FileStatistics, what a file system reports about a path. */
#ifndef TENSORFLOW_C_TF_FILE_STATISTICS_H_
#define TENSORFLOW_C_TF_FILE_STATISTICS_H_

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TF_FileStatistics {
  /* Size of the file in bytes. */
  int64_t length;
  /* Time of the last modification, in nanoseconds since the Unix epoch. */
  int64_t mtime_nsec;
  /* Whether the path names a directory. */
  bool is_directory;
} TF_FileStatistics;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORFLOW_C_TF_FILE_STATISTICS_H_ */

// The tokenizers of StringSplit and StringSplitV2, as TensorFlow splits. Each calls
// emit(token) for the tokens of `text` in order; tokens are views into `text`.
#ifndef SLUICE_KERNELS_CPU_STRINGS_STRING_SPLIT_H_
#define SLUICE_KERNELS_CPU_STRINGS_STRING_SPLIT_H_

#include <algorithm>
#include <cstdint>

#include "absl/strings/ascii.h"
#include "absl/strings/string_view.h"

namespace sluice {
namespace strings {

// StringSplitV2, Python's str.split: with a separator, every occurrence of it (several
// bytes long, maybe) ends a token, so "a,,b" gives a, "", b and "" gives one empty token;
// with an empty one, runs of ASCII whitespace separate tokens and none is empty. After
// `maxsplit` splits (when > 0) the rest of the text is the last token, taken as it stands
// (after the whitespace that ended the last split, which is dropped, even if nothing remains).
// A maxsplit of 0 splits nothing: the text is the one token, whitespace and all.
template <typename Emit>
void SplitLikePython(absl::string_view text, absl::string_view sep, int64_t maxsplit, Emit&& emit) {
  if (maxsplit == 0) {
    emit(text);
    return;
  }
  int64_t splits = 0;
  if (sep.empty()) {
    auto skip_space = [&text] {
      while (!text.empty() && absl::ascii_isspace(static_cast<unsigned char>(text.front()))) {
        text.remove_prefix(1);
      }
    };
    skip_space();
    while (!text.empty()) {
      size_t n = 0;
      while (n < text.size() && !absl::ascii_isspace(static_cast<unsigned char>(text[n]))) ++n;
      emit(text.substr(0, n));
      text.remove_prefix(n);
      skip_space();
      ++splits;
      if (maxsplit > 0 && splits == maxsplit) {
        emit(text);
        return;
      }
    }
    return;
  }
  while (true) {
    const auto at = std::search(text.begin(), text.end(), sep.begin(), sep.end());
    if (at == text.end()) break;
    const size_t n = static_cast<size_t>(at - text.begin());
    emit(text.substr(0, n));
    text.remove_prefix(n + sep.size());
    ++splits;
    if (maxsplit > 0 && splits == maxsplit) break;
  }
  emit(text);
}

// StringSplit (TF1): with a delimiter, each of its bytes ends a token, empty tokens dropped
// when skip_empty; with an empty delimiter, one token per byte. An empty text has no tokens.
template <typename Emit>
void SplitOnAnyByte(absl::string_view text, absl::string_view delimiters, bool skip_empty,
                    Emit&& emit) {
  if (text.empty()) return;
  if (delimiters.empty()) {
    for (size_t i = 0; i < text.size(); ++i) emit(text.substr(i, 1));
    return;
  }
  while (true) {
    const size_t at = text.find_first_of(delimiters);
    const absl::string_view token = text.substr(0, at);
    if (!(skip_empty && token.empty())) emit(token);
    if (at == absl::string_view::npos) return;
    text.remove_prefix(at + 1);
  }
}

}  // namespace strings
}  // namespace sluice

#endif  // SLUICE_KERNELS_CPU_STRINGS_STRING_SPLIT_H_

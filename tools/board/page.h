// The board's one web page: page.html (HTML, CSS and JavaScript in one file, no network
// requests but to the board's own API), compiled into the binary by the genrule in BUILD so
// `sluice board` needs no files beside it.
#ifndef SLUICE_TOOLS_BOARD_PAGE_H_
#define SLUICE_TOOLS_BOARD_PAGE_H_

#include "absl/strings/string_view.h"

namespace sluice {
namespace board {

absl::string_view PageHtml();

}  // namespace board
}  // namespace sluice

#endif  // SLUICE_TOOLS_BOARD_PAGE_H_

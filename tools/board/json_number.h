// How `sluice board` writes numbers into its JSON.
//
// Finite values: the shortest decimal text that reads back as the same value of the type
// (std::to_chars), so a float 0.1 is "0.1" rather than "0.100000001" and a double keeps all
// its digits. Non-finite values, which JSON has no numbers for, become the strings "NaN",
// "Infinity" and "-Infinity" (JavaScript's own spellings, so the page converts them with
// Number()). Statistics that do not exist (the minimum of a tensor without finite values) are
// null, never one of those strings.
#ifndef SLUICE_TOOLS_BOARD_JSON_NUMBER_H_
#define SLUICE_TOOLS_BOARD_JSON_NUMBER_H_

#include <string>

namespace sluice {
namespace board {

std::string JsonNumber(double value);
// Shortest for a float: what a float tensor's element prints as.
std::string JsonFloat(float value);

}  // namespace board
}  // namespace sluice

#endif  // SLUICE_TOOLS_BOARD_JSON_NUMBER_H_

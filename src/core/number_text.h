// Doubles as text: the shortest form that reads back as the same value
// (std::to_chars), so 0.1 prints as "0.1", not "0.10000000000000001".
#ifndef TOPICRAWL_CORE_NUMBER_TEXT_H_
#define TOPICRAWL_CORE_NUMBER_TEXT_H_

#include <string>

namespace topicrawl {

// "0.1", "1", "1e-05", "-inf", "nan".
std::string ShortestDouble(double v);

// A TOML float: ShortestDouble with ".0" added where it would read as an
// integer ("1.0", "0.1", "1e-05", "inf").
std::string TomlNumber(double v);

}  // namespace topicrawl

#endif  // TOPICRAWL_CORE_NUMBER_TEXT_H_

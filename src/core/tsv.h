// Tab-separated lines, as every TSV file of the project is read (manifests,
// labels, datasets, truth files): fields split on each '\t', empty fields
// kept, no quoting (the files never quote).
#ifndef TOPICRAWL_CORE_TSV_H_
#define TOPICRAWL_CORE_TSV_H_

#include <string_view>
#include <vector>

namespace topicrawl {

// The fields of `line` (without its newline). "" gives one empty field;
// "a\t\tb" gives {"a", "", "b"}. The views point into `line`.
std::vector<std::string_view> SplitTabs(std::string_view line);

}  // namespace topicrawl

#endif  // TOPICRAWL_CORE_TSV_H_

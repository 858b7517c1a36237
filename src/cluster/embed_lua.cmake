# Writes OUT: the Lua file IN as a C++ header holding it in a raw string
# literal `NAME` (std::string_view), byte for byte.
file(READ ${IN} LUA)
get_filename_component(IN_NAME ${IN} NAME)
file(WRITE ${OUT} "// Generated from src/cluster/${IN_NAME} by embed_lua.cmake.
#ifndef TOPICRAWL_CLUSTER_CLUSTER_FUNCTIONS_LUA_H_
#define TOPICRAWL_CLUSTER_CLUSTER_FUNCTIONS_LUA_H_
#include <string_view>
namespace topicrawl {
inline constexpr std::string_view ${NAME} = R\"LUA(${LUA})LUA\";
}  // namespace topicrawl
#endif  // TOPICRAWL_CLUSTER_CLUSTER_FUNCTIONS_LUA_H_
")

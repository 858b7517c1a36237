# Writes OUT: the dashboard files of DIR as C++ raw string literals.
file(READ ${DIR}/dashboard.html HTML)
file(READ ${DIR}/dashboard.js JS)
file(READ ${DIR}/dashboard.css CSS)
file(WRITE ${OUT} "// Generated from src/server/assets by embed_assets.cmake.
#include \"server/api_server.h\"
namespace topicrawl {
std::string_view DashboardHtml() { return R\"TRASSET(${HTML})TRASSET\"; }
std::string_view DashboardJs() { return R\"TRASSET(${JS})TRASSET\"; }
std::string_view DashboardCss() { return R\"TRASSET(${CSS})TRASSET\"; }
}  // namespace topicrawl
")

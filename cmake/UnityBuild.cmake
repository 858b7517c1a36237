# CI configures with -DCMAKE_UNITY_BUILD=ON: each target's sources are
# compiled in batches of 16 per translation unit, which cuts the CPU of a
# clean build to about a third (the headers - GoogleTest, cpp-httplib,
# Xapian, the standard library - are parsed once per batch instead of once
# per file). A file listed here defines internal helpers under the same names
# as another file of its target (an anonymous-namespace `Lower`, `Trim`,
# `kAgent`...), which one translation unit cannot hold twice: it is compiled
# on its own. List a file here when a unity build reports a redefinition or
# an ambiguous call in it.
set(TOPICRAWL_UNITY_ALONE
  src/eval/link_graph.cc
  src/eval/oracle_crawl.cc
  src/eval/round_metrics.cc
  src/export/optout.cc
  src/fetch/http_headers.cc
  src/parse/main_content_render.cc
  src/robots/robots_cache_test.cc
  src/sitemap/announce_parser.cc
  src/sitemap/announce_parser_test.cc
  src/store/crawl_store_frontier.cc
  src/store/crawl_store_open.cc
  src/store/crawl_store_rounds.cc
  src/store/warc_writer.cc
  src/strategies/jlse/result_page_features.cc
  src/strategies/round_registry.cc
  src/url/path_encoding.cc
  src/web/announce_writer.cc
  src/web/evolved_web.cc
  src/web/version_rounds.cc
  src/web/web_builder.cc
)

# The property is set in the directory whose CMakeLists.txt lists the file
# (the nearest one above it).
foreach(rel IN LISTS TOPICRAWL_UNITY_ALONE)
  set(file ${PROJECT_SOURCE_DIR}/${rel})
  if(NOT EXISTS ${file})
    message(FATAL_ERROR "cmake/UnityBuild.cmake lists ${rel}, which does not exist")
  endif()
  get_filename_component(dir ${file} DIRECTORY)
  while(NOT EXISTS ${dir}/CMakeLists.txt)
    get_filename_component(dir ${dir} DIRECTORY)
  endwhile()
  set_source_files_properties(${file} DIRECTORY ${dir}
    PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endforeach()

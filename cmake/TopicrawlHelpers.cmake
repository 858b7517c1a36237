# topicrawl_library(NAME SOURCES a.cc b.cc DEPS lib1 lib2)
#   A component library `topicrawl_NAME` rooted at src/ for includes
#   (#include "url/url.h").
function(topicrawl_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(topicrawl_${name} STATIC ${ARG_SOURCES})
  target_include_directories(topicrawl_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(topicrawl_${name} PUBLIC ${ARG_DEPS})
endfunction()

# topicrawl_test(NAME SOURCES x_test.cc DEPS libs...)
#   A GoogleTest executable registered with CTest (label "unit" unless LABELS).
function(topicrawl_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  if(NOT TOPICRAWL_BUILD_TESTS)
    return()
  endif()
  add_executable(${name} ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gmock GTest::gtest_main)
  # Fakes and fixtures live in tests/support/ (#include "support/...").
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_compile_definitions(${name} PRIVATE
    TOPICRAWL_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    TOPICRAWL_SHARED_DIR="${PROJECT_SOURCE_DIR}/../shared")
  # Test code is compiled at -O1 in optimised builds: the code under test
  # comes from the component libraries (-O2), and a GoogleTest file costs
  # about half the compile time at -O1 (a 150-line scorer test: 19 s CPU at
  # -O2 -g, 10 s at -O1 -g1), which is most of CI's build.
  target_compile_options(${name} PRIVATE $<$<CONFIG:RelWithDebInfo,Release>:-O1>)
  if(NOT ARG_LABELS)
    set(ARG_LABELS unit)
  endif()
  gtest_discover_tests(${name} PROPERTIES LABELS "${ARG_LABELS}" DISCOVERY_TIMEOUT 60)
  # `unit_tests` builds every unit-labelled test, `integration_tests` every
  # other one: CI runs the unit tests in the ASan+UBSan build and the
  # integration tests in the release build, so each test is built and run
  # once.
  if(ARG_LABELS STREQUAL "unit")
    set(group unit_tests)
  else()
    set(group integration_tests)
  endif()
  if(NOT TARGET ${group})
    add_custom_target(${group})
  endif()
  add_dependencies(${group} ${name})
endfunction()

# topicrawl_bench(NAME SOURCES x_bench.cc DEPS libs...)
function(topicrawl_bench name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} benchmark::benchmark)
  target_compile_definitions(${name} PRIVATE
    TOPICRAWL_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    TOPICRAWL_SHARED_DIR="${PROJECT_SOURCE_DIR}/../shared")
endfunction()

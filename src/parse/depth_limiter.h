// Bounding the element nesting depth of hostile HTML before tree building.
//
// HTML5 tree builders are quadratic in nesting depth (DEPS.md: 40k nested
// <div> take myhtml 1.6 s, gumbo 13 s), and real pages never need more than a
// few dozen levels. LimitNestingDepth() runs a cheap tokenizer-level pass that
// models the open-element stack (with the common implied end tags of HTML
// §13.2.6: <p>, <li>, <dt>/<dd>, <option>, table parts, and a new <a>
// closing an open one) and removes start tags that would open an element
// deeper than `max_depth`, together with their end tags. Text is kept, so the
// excess is flattened into the deepest kept element rather than lost. An <a>
// start tag may exceed the cap by a small slack (16) so deep links survive.
//
// The model errs towards over-counting depth (it does not know every implied
// end tag), which can only flatten more, never leave a page deeper than the
// cap would allow a tree builder to go through that model.
#ifndef TOPICRAWL_PARSE_DEPTH_LIMITER_H_
#define TOPICRAWL_PARSE_DEPTH_LIMITER_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace topicrawl {

struct DepthLimitResult {
  bool changed = false;       // true when *out holds a rewritten document
  size_t dropped_tags = 0;    // start + end tags removed
  int max_depth_seen = 0;     // deepest modelled depth before limiting
  bool has_base_tag = false;  // a <base> start tag occurs (outside raw text)
};

// Scans `html`; when some element would nest deeper than `max_depth`, writes
// a copy without the excess tags to *out (each removed tag becomes one space)
// and returns changed=true. Otherwise *out is untouched.
// REQUIRES: max_depth >= 1.
DepthLimitResult LimitNestingDepth(std::string_view html, int max_depth,
                                   std::string* out);

}  // namespace topicrawl

#endif  // TOPICRAWL_PARSE_DEPTH_LIMITER_H_

// The script-built variant of a synthetic web host (--js-host-fraction,
// issue 36): the same pages, links and text as the static host, but
// delivered the way single-page applications do, so that a crawler that
// does not run scripts sees an empty shell. Four styles, one per host
// (chosen from the seed):
//   kApi       /app.js fetches /api/page.json?u=<path> and inserts the
//              page's HTML (JSON from an API);
//   kRouter    as kApi, plus client-side routing: clicks on in-site links
//              are intercepted and the next page is fetched and shown with
//              history.pushState, no document load;
//   kTemplate  the page's title, paragraphs and links travel as JSON inside
//              <script type="application/json">; /app.js builds the prose and
//              renders the link list from a <template> element, cloned once
//              per link;
//   kLazy      a tall placeholder; the page's HTML is fetched only when the
//              reader scrolls to the bottom (a scroll listener).
// Ground truth is what Chromium shows after load: document.links and
// innerText (bench/render/ground_truth.mjs), equal by construction to the
// static page's links and text.
#ifndef TOPICRAWL_WEB_SYNTHETIC_JS_H_
#define TOPICRAWL_WEB_SYNTHETIC_JS_H_

#include <string>
#include <string_view>

namespace topicrawl::web {

enum class JsStyle { kStatic = 0, kApi, kRouter, kTemplate, kLazy };
const char* JsStyleName(JsStyle style);

// The HTML a script-built host serves for a page whose static rendering is
// `static_html`.
std::string JsShell(JsStyle style, std::string_view static_html);
// The host's /app.js.
std::string JsApp(JsStyle style);
// The body of /api/page.json for a page: {"html": <static body>}.
std::string JsPageJson(std::string_view static_html);

// Inner HTML of <body>...</body> (the whole text when there is none).
std::string_view BodyOf(std::string_view html);
// A JSON string literal safe inside <script> (escapes '<' as \u003c).
std::string JsonString(std::string_view text);

}  // namespace topicrawl::web

#endif  // TOPICRAWL_WEB_SYNTHETIC_JS_H_

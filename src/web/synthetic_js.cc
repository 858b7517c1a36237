#include "web/synthetic_js.h"

#include <cstdio>
#include <regex>

namespace topicrawl::web {

const char* JsStyleName(JsStyle style) {
  switch (style) {
    case JsStyle::kStatic: return "static";
    case JsStyle::kApi: return "api";
    case JsStyle::kRouter: return "router";
    case JsStyle::kTemplate: return "template";
    case JsStyle::kLazy: return "lazy";
  }
  return "static";
}

std::string_view BodyOf(std::string_view html) {
  size_t open = html.find("<body>");
  size_t close = html.rfind("</body>");
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    return html;
  }
  return html.substr(open + 6, close - open - 6);
}

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '<': out += "\\u003c"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string JsPageJson(std::string_view static_html) {
  return "{\"html\":" + JsonString(BodyOf(static_html)) + "}";
}

namespace {

std::string_view TitleOf(std::string_view html) {
  size_t open = html.find("<title>");
  size_t close = html.find("</title>");
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return "";
  return html.substr(open + 7, close - open - 7);
}

// kTemplate: {"h1": title, "prose": text without tags, "links": [[href, anchor]...]}.
std::string TemplateData(std::string_view static_html) {
  const std::string body(BodyOf(static_html));
  static const std::regex kLink("<a href=\"([^\"]*)\">([^<]*)</a>");
  std::string links = "[";
  for (auto it = std::sregex_iterator(body.begin(), body.end(), kLink);
       it != std::sregex_iterator(); ++it) {
    if (links.size() > 1) links += ",";
    links += "[" + JsonString((*it)[1].str()) + "," + JsonString((*it)[2].str()) + "]";
  }
  links += "]";
  static const std::regex kTag("<[^>]*>");
  const std::string prose = std::regex_replace(body, kTag, " ");
  return "{\"prose\":" + JsonString(prose) + ",\"links\":" + links + "}";
}

}  // namespace

std::string JsShell(JsStyle style, std::string_view static_html) {
  std::string head = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" +
                     std::string(TitleOf(static_html)) +
                     "</title><script src=\"/app.js\"></script></head>\n<body>\n";
  switch (style) {
    case JsStyle::kTemplate:
      return head + "<main id=\"app\"></main>\n<template id=\"link\"><li><a></a></li></template>\n"
                    "<ul id=\"links\"></ul>\n<script type=\"application/json\" id=\"data\">" +
             TemplateData(static_html) + "</script>\n</body></html>\n";
    case JsStyle::kLazy:
      return head + "<div id=\"app\" style=\"height:4000px\">Loading...</div>\n"
                    "<div id=\"end\"></div>\n</body></html>\n";
    default:
      return head + "<div id=\"app\">Loading...</div>\n</body></html>\n";
  }
}

std::string JsApp(JsStyle style) {
  const std::string load = R"JS(
function show(path) {
  return fetch('/api/page.json?u=' + encodeURIComponent(path))
    .then(r => r.json()).then(j => { document.getElementById('app').innerHTML = j.html; });
}
)JS";
  switch (style) {
    case JsStyle::kApi:
      return load + "document.addEventListener('DOMContentLoaded', () => "
                    "show(location.pathname + location.search));\n";
    case JsStyle::kRouter:
      return load + R"JS(document.addEventListener('DOMContentLoaded', () => {
  show(location.pathname + location.search);
  document.addEventListener('click', e => {
    const a = e.target.closest('a');
    if (!a || a.origin !== location.origin) return;
    e.preventDefault();
    history.pushState({}, '', a.pathname + a.search);
    show(a.pathname + a.search);
  });
  window.addEventListener('popstate', () => show(location.pathname + location.search));
});
)JS";
    case JsStyle::kTemplate:
      return R"JS(document.addEventListener('DOMContentLoaded', () => {
  const data = JSON.parse(document.getElementById('data').textContent);
  const p = document.createElement('p'); p.textContent = data.prose;
  document.getElementById('app').appendChild(p);
  const tpl = document.getElementById('link'), ul = document.getElementById('links');
  for (const [href, anchor] of data.links) {
    const li = tpl.content.cloneNode(true), a = li.querySelector('a');
    a.href = href; a.textContent = anchor; ul.appendChild(li);
  }
});
)JS";
    case JsStyle::kLazy:
      return load + R"JS(let loaded = false;
window.addEventListener('scroll', () => {
  if (loaded || window.scrollY + window.innerHeight < document.body.scrollHeight - 200) return;
  loaded = true;
  show(location.pathname + location.search).then(() => {
    document.getElementById('app').style.height = '';
  });
});
)JS";
    default:
      return "";
  }
}

}  // namespace topicrawl::web

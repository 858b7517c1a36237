// Byte-level HTML scanning for the evolving webs (web/evolved_web.h): the
// links a page carries, removing some of them, and the edits a "changed" page
// gets (text moved from another page of the same site).
//
// This is not the crawler's parser (parse/html_parser.h): it works on the raw
// bytes so that an edited page is the original file with a few spans
// replaced, byte for byte elsewhere. It covers what the crawler follows:
// href of <a>, <area> and <link>, src of <frame> and <iframe>, with <base
// href> honoured. Comments and the content of <script>, <style>, <textarea>
// and <title> are skipped. (A <meta http-equiv=refresh> target is not
// handled: the benchmark webs use it only on home pages, which never evolve.)
#ifndef TOPICRAWL_WEB_HTML_LINKS_H_
#define TOPICRAWL_WEB_HTML_LINKS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace topicrawl::web {

// One link-carrying attribute: [begin, end) is the whole attribute
// (`href="x"`, name to closing quote), `value` its entity-decoded value.
struct LinkAttribute {
  size_t begin = 0;
  size_t end = 0;
  std::string value;
};

struct ScannedLinks {
  std::vector<LinkAttribute> links;  // in document order
  std::string base_href;             // first <base href>, empty if none
};

ScannedLinks ScanLinks(std::string_view html);

// The corpus label form (../shared/corpus/README.md §3) of `href` resolved
// against `base`: http scheme, lower-case host, no port, query or fragment,
// path decoded then re-encoded (PercentEncodePath), "…/" -> "…/index.html".
// Empty when the link does not resolve to an http(s) URL.
std::string ResolveLabelUrl(std::string_view base, std::string_view href);

// Every link of a page in label form (resolved against <base href> when the
// page has one, else `page_url`), in document order, unresolvable ones
// skipped, duplicates kept.
std::vector<std::string> PageLinks(std::string_view html, std::string_view page_url);

// Removes the link attributes for which drop(label_url) is true (the element
// stays, with its text, but no longer links). Returns how many were removed.
template <typename Drop>
size_t RemoveLinks(std::string* html, std::string_view page_url, Drop drop);

// Text blocks of a page: the tag-stripped, whitespace-folded content of
// every <p> element (entities kept as written, so the text can be put back
// into HTML as is), blocks shorter than `min_chars` left out.
std::vector<std::string> TextBlocks(std::string_view html, size_t min_chars = 60);

// [begin, end) spans of the <p>…</p> elements of a page that contain no tag
// carrying a link (safe to delete without changing the link graph).
std::vector<std::pair<size_t, size_t>> LinklessParagraphs(std::string_view html);

// Where new paragraph number `slot` goes: after the slot-th "</p>" (1-based;
// clamped to the count), else before "</body>", else the end of the page.
size_t InsertionPoint(std::string_view html, size_t slot);

// Counts "</p>" (case-insensitive).
size_t CountParagraphEnds(std::string_view html);

// --- implementation of the template ---------------------------------------

template <typename Drop>
size_t RemoveLinks(std::string* html, std::string_view page_url, Drop drop) {
  ScannedLinks scanned = ScanLinks(*html);
  std::string base(page_url);
  if (!scanned.base_href.empty()) {
    std::string resolved = ResolveLabelUrl(page_url, scanned.base_href);
    if (!resolved.empty()) base = resolved;
  }
  std::string out;
  size_t removed = 0, copied = 0;
  for (const LinkAttribute& a : scanned.links) {
    std::string target = ResolveLabelUrl(base, a.value);
    if (target.empty() || !drop(target)) continue;
    out.append(*html, copied, a.begin - copied);
    copied = a.end;
    ++removed;
  }
  if (removed == 0) return 0;
  out.append(*html, copied, std::string::npos);
  *html = std::move(out);
  return removed;
}

}  // namespace topicrawl::web

#endif  // TOPICRAWL_WEB_HTML_LINKS_H_

// A deterministic synthetic web for focused-crawler experiments: up to 10^7
// pages generated on request and never stored. Every response is a pure
// function of (options, host, request target), so two servers with the same
// knobs serve byte-identical webs and the ground truth (WriteLabels) is exact.
//
// Shape of the web
//   * `hosts` hosts named site<i>.<domain> (English) or zhan<i>.<domain>
//     (Chinese, a `zh_host_fraction` of them). Pages are split evenly over
//     hosts; page 0 of a host is its home page "/".
//   * A host's pages form clusters of `cluster_size` consecutive pages
//     (cluster c = pages [c*cluster_size, (c+1)*cluster_size)). Cluster 0 has
//     the host's main topic; any other cluster keeps it with probability
//     `host_purity`, else draws one of `topics` topics. A page's topic is its
//     cluster's topic; its text draws `topic_word_ratio` of its words from that
//     topic's vocabulary (English or Chinese), `noise_topic_ratio` from one
//     other topic, the rest from common words.
//   * URLs: home "/" (canonical form "/index.html" in labels), pages
//     "/<slug>/c<c>/p<p>.html" where slug is the cluster topic's name with
//     probability `url_topic_hint`, else a neutral word. Other paths are 404.
//   * Links. Every page links home and to the next page of its cluster; the
//     first page ("entry") of cluster c links to the entries of clusters
//     c*fanout+1 .. c*fanout+fanout, so every page is reachable from the home.
//     On top come `Pareto(out_degree_alpha)` random links (between
//     out_degree_min and out_degree_max): inside the cluster with probability
//     `cluster_locality`, else anywhere on the host; with probability
//     `cross_site_prob` to another host (one of the same main topic with
//     probability `cross_site_same_topic`), and with `broken_link_prob` to a
//     page that does not exist (404). Anchor texts are the target's title words.
//   * Tunnelling: a cluster (not 0) whose topic differs from its parent
//     cluster's topic is "tunnelled" with probability `tunnel_prob`. Its only
//     in-links from outside come from page tunnel_length-1 of its parent
//     cluster (a chain of tunnel_length off-topic pages from the parent's
//     entry); every other link that would point into it is redirected to the
//     parent's entry. So relevant clusters exist that a crawler reaches only
//     by walking through irrelevant pages.
//   * Traps. Hosts with a calendar (`calendar_host_fraction`) link from their
//     home to /cal/<year>/<month>; each calendar page links to the next and
//     previous month forever (years up to 999999). Session hosts
//     (`session_host_fraction`) append ?sid=<16 hex> to every in-site link,
//     derived from the requesting URL's sid, so each visit mints new URLs for
//     the same pages (infinite duplicates; labels ignore the query).
//   * robots.txt per host: "Disallow: /cal/" on a `robots_calendar_disallow`
//     share of calendar hosts, optional Crawl-delay, else an empty Disallow.
//
// Ground truth: a page is relevant to topic T when its topic is T. Calendar
// pages and sid variants are not canonical pages and never appear in labels.
// Thread-safety: a SyntheticWeb is immutable after construction; Respond()
// and the label writers may be called from many threads.
#ifndef TOPICRAWL_WEB_SYNTHETIC_WEB_H_
#define TOPICRAWL_WEB_SYNTHETIC_WEB_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "web/synthetic_js.h"

namespace topicrawl::web {

struct SyntheticWebOptions {
  uint64_t seed = 1;                 // everything derives from it
  uint32_t hosts = 100;              // 1 .. 100000
  uint64_t pages = 100000;           // canonical pages in total; hosts .. 10^7
  uint32_t topics = 12;              // 1 .. 16 built-in topics (see TopicNames())
  std::string domain = "test";       // host names are site<i>.<domain>, zhan<i>.<domain>
  double zh_host_fraction = 0.2;     // share of hosts whose text is Chinese
  uint32_t cluster_size = 40;        // pages per topical cluster (>= 1)
  uint32_t cluster_fanout = 4;       // clusters linked from a cluster entry (>= 1)
  double host_purity = 0.7;          // P(cluster topic == host main topic)
  double topic_word_ratio = 0.25;    // share of body words from the page's topic
  double noise_topic_ratio = 0.04;   // share from one other topic
  double url_topic_hint = 0.5;       // P(URL slug names the cluster topic)
  uint32_t words_min = 120;          // body length in words, uniform in [min, max]
  uint32_t words_max = 500;
  double out_degree_alpha = 2.2;     // Pareto exponent of random out-links (> 1)
  uint32_t out_degree_min = 4;
  uint32_t out_degree_max = 120;
  double cluster_locality = 0.75;    // in-site random link stays in the cluster
  double cross_site_prob = 0.08;     // random link goes to another host
  double cross_site_same_topic = 0.6;  // ... whose main topic is the page's topic
  double broken_link_prob = 0.02;    // random link to a missing page (404)
  double tunnel_prob = 0.15;         // see "Tunnelling"
  uint32_t tunnel_length = 3;        // off-topic pages in front of a tunnelled cluster
  double calendar_host_fraction = 0.2;
  double session_host_fraction = 0.1;
  double robots_calendar_disallow = 0.5;
  double crawl_delay = 0;            // seconds in robots.txt; 0 = no Crawl-delay line
  // Share of hosts whose pages are built by scripts (web/synthetic_js.h):
  // same links and text, served as an application shell; a cross-site link
  // to such a host points at its home page (its other pages are reached
  // only through script-built navigation). 0 keeps every host static (and
  // the web byte-identical to webs without the knob).
  double js_host_fraction = 0;

  // Range checks of every knob; the message names the knob.
  Status Validate() const;
};

// The built-in topic names in index order ("networking", "security", ...).
const std::vector<std::string>& TopicNames();
// Index of a topic name (or a decimal index); -1 if unknown.
int TopicIndex(std::string_view name_or_index, uint32_t topics);

struct SyntheticResponse {
  int status = 200;  // 200, 404, 400
  std::string content_type = "text/html; charset=utf-8";
  std::string body;
};

class SyntheticWeb {
 public:
  // REQUIRES: options.Validate().ok()
  explicit SyntheticWeb(SyntheticWebOptions options);

  const SyntheticWebOptions& options() const { return options_; }

  // The response to GET `target` (origin form "/path?query", as in the
  // request line) on `host` (Host header; a ":port" suffix and letter case
  // are ignored). Unknown hosts and paths give 404.
  SyntheticResponse Respond(std::string_view host, std::string_view target) const;

  // How host h builds its pages (JsStyle::kStatic unless js_host_fraction).
  JsStyle HostJsStyle(uint32_t h) const;
  // Host name of host index h (< options().hosts).
  std::string HostName(uint32_t h) const;
  uint64_t PagesOnHost(uint32_t h) const;
  // Canonical URL of page p of host h ("http://host/index.html" for p = 0).
  std::string PageUrl(uint32_t h, uint64_t p) const;
  // Topic index of page p of host h.
  uint32_t PageTopic(uint32_t h, uint64_t p) const;
  // True when page p lies in a tunnelled cluster.
  bool PageTunnelled(uint32_t h, uint64_t p) const;

  // Label TSV for `topic`: header "url relevant reason", one row per
  // canonical page, sorted by url (same format as ../shared/corpus/labels).
  // reason is "topic=<name>" (plus ";tunnelled") for relevant rows, empty
  // otherwise. Returns the number of relevant pages.
  uint64_t WriteLabels(uint32_t topic, std::ostream& out) const;
  // "host home_url role" rows (role=home), like ../shared/corpus/homes.
  void WriteHomes(std::ostream& out) const;

 private:
  struct HostInfo;
  HostInfo Host(uint32_t h) const;
  uint32_t ClusterTopic(uint32_t h, uint64_t c) const;
  bool Tunnelled(uint32_t h, uint64_t c) const;
  uint64_t Clusters(uint32_t h) const;
  std::string PagePath(uint32_t h, uint64_t p) const;
  uint64_t Visible(uint32_t h, uint64_t from, uint64_t target) const;
  std::string Title(uint32_t h, uint64_t p) const;
  bool ParseHost(std::string_view host, uint32_t* h) const;
  SyntheticResponse Page(uint32_t h, uint64_t p, std::string_view sid) const;
  SyntheticResponse RespondStatic(uint32_t h, std::string_view target) const;
  SyntheticResponse Calendar(uint32_t h, uint64_t year, uint32_t month) const;
  std::string Robots(uint32_t h) const;

  SyntheticWebOptions options_;
};

}  // namespace topicrawl::web

#endif  // TOPICRAWL_WEB_SYNTHETIC_WEB_H_

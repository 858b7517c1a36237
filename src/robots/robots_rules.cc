#include "robots/robots_rules.h"

#include <algorithm>
#include <cstdlib>

namespace topicrawl {
namespace {

constexpr char kHexUpper[] = "0123456789ABCDEF";

bool IsSpace(char c) { return c == ' ' || c == '\t'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x + 32);
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y + 32);
    if (x != y) return false;
  }
  return true;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return out;
}

bool IsHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

char UpperHex(char c) { return (c >= 'a' && c <= 'f') ? static_cast<char>(c - 32) : c; }

// §2.2.2: octets outside ASCII (and controls / space, which cannot appear in
// a canonical URL unescaped) are percent-encoded; existing %xx escapes get
// upper-case hex so that "%e3" and "%E3" compare equal.
std::string NormalizePattern(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(in[i]);
    if (c == '%' && i + 2 < in.size() && IsHex(in[i + 1]) && IsHex(in[i + 2])) {
      out.push_back('%');
      out.push_back(UpperHex(in[i + 1]));
      out.push_back(UpperHex(in[i + 2]));
      i += 2;
    } else if (c >= 0x80 || c <= 0x20 || c == 0x7F) {
      out.push_back('%');
      out.push_back(kHexUpper[c >> 4]);
      out.push_back(kHexUpper[c & 15]);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

// google/robotstxt's matcher: `pos` holds every path offset the pattern
// prefix seen so far can end at; '*' widens it to all later offsets.
// O(path * pattern) worst case, no recursion, no allocation beyond `pos`.
bool WildcardMatch(std::string_view path, std::string_view pattern) {
  const size_t pathlen = path.size();
  std::vector<size_t> pos(pathlen + 1);
  size_t numpos = 1;
  pos[0] = 0;
  for (size_t p = 0; p < pattern.size(); ++p) {
    char pc = pattern[p];
    if (pc == '$' && p + 1 == pattern.size()) return pos[numpos - 1] == pathlen;
    if (pc == '*') {
      numpos = pathlen - pos[0] + 1;
      for (size_t i = 1; i < numpos; ++i) pos[i] = pos[i - 1] + 1;
    } else {
      size_t newnumpos = 0;
      for (size_t i = 0; i < numpos; ++i) {
        if (pos[i] < pathlen && path[pos[i]] == pc) pos[newnumpos++] = pos[i] + 1;
      }
      numpos = newnumpos;
      if (numpos == 0) return false;
    }
  }
  return true;
}

}  // namespace

// Line-by-line parser; builds the groups of a RobotsRules.
class RobotsParser {
 public:
  explicit RobotsParser(RobotsRules* rules) : rules_(rules) {}

  void Parse(std::string_view body) {
    if (body.size() > kMaxRobotsBytes) {
      // Cut at the cap, then drop the partial last line: half a rule
      // ("Disallow: /private" cut to "Disallow: /p") would change meaning.
      body = body.substr(0, kMaxRobotsBytes);
      size_t last_eol = body.find_last_of("\r\n");
      body = last_eol == std::string_view::npos ? std::string_view()
                                                : body.substr(0, last_eol + 1);
      rules_->truncated_ = true;
      Issue(0, "file larger than 500 KiB; only the first 500 KiB parsed");
    }
    if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);
    int line_number = 0;
    while (!body.empty()) {
      size_t eol = body.find_first_of("\r\n");
      std::string_view line = body.substr(0, eol);
      if (eol == std::string_view::npos) {
        body = {};
      } else {
        size_t skip = (body[eol] == '\r' && eol + 1 < body.size() && body[eol + 1] == '\n') ? 2 : 1;
        body.remove_prefix(eol + skip);
      }
      ParseLine(++line_number, line);
    }
  }

 private:
  enum class Key {
    kUnknown, kUserAgent, kAllow, kDisallow, kSitemap, kCrawlDelay, kContentUsage,
    kContentSignal
  };

  void Issue(int line, std::string problem) {
    rules_->issues_.push_back(RobotsIssue{line, std::move(problem)});
  }

  void ParseLine(int n, std::string_view line) {
    if (line.size() > kMaxRobotsLineBytes - 1) {
      line = line.substr(0, kMaxRobotsLineBytes - 1);
      Issue(n, "line longer than " + std::to_string(kMaxRobotsLineBytes) + " bytes truncated");
    }
    line = Trim(line.substr(0, line.find('#')));
    if (line.empty()) return;
    std::string_view key, value;
    if (!SplitKeyValue(n, line, &key, &value)) return;
    switch (ClassifyKey(n, key)) {
      case Key::kUserAgent:
        OnUserAgent(n, value);
        break;
      case Key::kAllow:
        OnRule(n, /*allow=*/true, value);
        break;
      case Key::kDisallow:
        OnRule(n, /*allow=*/false, value);
        break;
      case Key::kSitemap:
        if (!value.empty()) rules_->sitemaps_.emplace_back(value);
        break;
      case Key::kCrawlDelay:
        OnCrawlDelay(n, value);
        break;
      case Key::kContentUsage:
        OnUsage(n, "content-usage", value);
        break;
      case Key::kContentSignal:
        OnUsage(n, "content-signal", value);
        break;
      case Key::kUnknown:
        Issue(n, "unknown key '" + std::string(key) + "'");
        break;
    }
  }

  // §2.1 "key: value". Like google/robotstxt, also "key value" when the
  // line has exactly two words (a forgotten colon).
  bool SplitKeyValue(int n, std::string_view line, std::string_view* key,
                     std::string_view* value) {
    size_t sep = line.find(':');
    if (sep != std::string_view::npos) {
      *key = Trim(line.substr(0, sep));
      *value = Trim(line.substr(sep + 1));
    } else {
      sep = line.find_first_of(" \t");
      std::string_view rest =
          sep == std::string_view::npos ? std::string_view() : Trim(line.substr(sep));
      if (rest.empty() || rest.find_first_of(" \t") != std::string_view::npos) {
        Issue(n, "no ':' separator; line ignored");
        return false;
      }
      *key = line.substr(0, sep);
      *value = rest;
      Issue(n, "no ':' separator; whitespace accepted");
    }
    if (key->empty()) {
      Issue(n, "empty key; line ignored");
      return false;
    }
    return true;
  }

  Key ClassifyKey(int n, std::string_view key) {
    if (EqualsIgnoreCase(key, "user-agent")) return Key::kUserAgent;
    if (EqualsIgnoreCase(key, "allow")) return Key::kAllow;
    if (EqualsIgnoreCase(key, "disallow")) return Key::kDisallow;
    if (EqualsIgnoreCase(key, "sitemap")) return Key::kSitemap;
    if (EqualsIgnoreCase(key, "crawl-delay")) return Key::kCrawlDelay;
    if (EqualsIgnoreCase(key, "content-usage")) return Key::kContentUsage;
    if (EqualsIgnoreCase(key, "content-signal")) return Key::kContentSignal;
    // Typos google/robotstxt accepts; honouring a misspelt Disallow errs on
    // the side of the site owner.
    for (std::string_view typo : {"useragent", "user agent"}) {
      if (EqualsIgnoreCase(key, typo)) return Typo(n, key, Key::kUserAgent);
    }
    for (std::string_view typo : {"dissallow", "dissalow", "disalow", "diasllow", "disallaw"}) {
      if (EqualsIgnoreCase(key, typo)) return Typo(n, key, Key::kDisallow);
    }
    if (EqualsIgnoreCase(key, "site-map")) return Typo(n, key, Key::kSitemap);
    return Key::kUnknown;
  }

  Key Typo(int n, std::string_view key, Key meant) {
    Issue(n, "misspelt key '" + std::string(key) + "' accepted");
    return meant;
  }

  // §2.1: a user-agent line after rules starts a new group; consecutive
  // user-agent lines (other records in between do not count) share one.
  void OnUserAgent(int n, std::string_view value) {
    std::string token;
    if (!value.empty() && value[0] == '*' &&
        (value.size() == 1 || IsSpace(value[1]))) {
      token = "*";
    } else {
      token = Lower(RobotsProductToken(value));
    }
    if (token.empty()) {
      Issue(n, "user-agent '" + std::string(value) + "' has no product token");
    }
    if (rules_->groups_.empty() || saw_rule_) {
      rules_->groups_.emplace_back();
      saw_rule_ = false;
    }
    if (!token.empty()) rules_->groups_.back().agents.push_back(std::move(token));
  }

  void OnRule(int n, bool allow, std::string_view value) {
    if (rules_->groups_.empty()) {
      Issue(n, "rule before any user-agent line ignored");
      return;
    }
    saw_rule_ = true;
    if (value.empty()) return;  // §2.2.2: empty value = no rule
    if (value[0] != '/' && value[0] != '*') {
      Issue(n, "path pattern does not start with '/' or '*'");
    }
    RobotsRules::Rule rule;
    rule.allow = allow;
    rule.pattern = NormalizePattern(value);
    rule.has_wildcard = rule.pattern.find('*') != std::string::npos ||
                        rule.pattern.back() == '$';
    rules_->groups_.back().rules.push_back(std::move(rule));
  }

  void OnCrawlDelay(int n, std::string_view value) {
    if (rules_->groups_.empty()) {
      Issue(n, "crawl-delay before any user-agent line ignored");
      return;
    }
    std::string text(value);
    char* end = nullptr;
    double seconds = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !(seconds >= 0) ||
        seconds > 86400) {
      Issue(n, "invalid crawl-delay '" + text + "'");
      return;
    }
    rules_->groups_.back().crawl_delay = seconds;
  }

  // "[path] preferences": a value starting with '/' or '*' names a path
  // first. Inside a group the line is a group member (aipref-attach §4
  // extends RFC 9309's rule production), so it ends a run of user-agents.
  void OnUsage(int n, const char* field, std::string_view value) {
    RobotsRules::UsageLine line;
    line.field = field;
    if (!value.empty() && (value[0] == '/' || value[0] == '*')) {
      const size_t space = value.find_first_of(" \t");
      line.path = NormalizePattern(value.substr(0, space));
      value = space == std::string_view::npos ? std::string_view() : Trim(value.substr(space));
    }
    if (value.empty()) {
      Issue(n, std::string(field) + " line without preferences ignored");
      return;
    }
    line.value = std::string(value);
    if (rules_->groups_.empty()) {
      rules_->global_usage_.push_back(std::move(line));
      return;
    }
    saw_rule_ = true;
    rules_->groups_.back().usage.push_back(std::move(line));
  }

  RobotsRules* rules_;
  bool saw_rule_ = false;  // an allow/disallow line since the last user-agent
};

RobotsRules RobotsRules::Parse(std::string_view body) {
  RobotsRules rules;
  RobotsParser(&rules).Parse(body);
  return rules;
}

RobotsRules RobotsRules::AllowAll() {
  RobotsRules rules;
  rules.mode_ = Mode::kAllowAll;
  return rules;
}

RobotsRules RobotsRules::DisallowAll() {
  RobotsRules rules;
  rules.mode_ = Mode::kDisallowAll;
  return rules;
}

size_t RobotsRules::rule_count() const {
  size_t n = 0;
  for (const Group& g : groups_) n += g.rules.size();
  return n;
}

std::vector<const RobotsRules::Group*> RobotsRules::GroupsFor(
    std::string_view agent) const {
  std::string_view token = RobotsProductToken(agent);
  std::vector<const Group*> specific, global;
  for (const Group& g : groups_) {
    bool is_specific = false, is_global = false;
    for (const std::string& a : g.agents) {
      is_global = is_global || a == "*";
      is_specific = is_specific || (!token.empty() && EqualsIgnoreCase(a, token));
    }
    if (is_specific) specific.push_back(&g);
    if (is_global) global.push_back(&g);
  }
  return specific.empty() ? global : specific;
}

bool RobotsRules::Allowed(std::string_view agent, std::string_view url) const {
  std::string path = RobotsMatchPath(url);
  if (path == "/robots.txt") return true;  // §2.2.2
  if (mode_ == Mode::kAllowAll) return true;
  if (mode_ == Mode::kDisallowAll) return false;
  // §2.2.2: longest match; priority is the pattern's length in octets.
  int best_allow = -1, best_disallow = -1;
  for (const Group* g : GroupsFor(agent)) {
    for (const Rule& r : g->rules) {
      int& best = r.allow ? best_allow : best_disallow;
      int length = static_cast<int>(r.pattern.size());
      if (length <= best) continue;
      bool match = r.has_wildcard ? WildcardMatch(path, r.pattern)
                                  : path.compare(0, r.pattern.size(), r.pattern) == 0;
      if (match) best = length;
    }
  }
  return best_allow >= best_disallow;  // no match at all: -1 >= -1, allowed
}

std::vector<RobotsRules::UsageLine> RobotsRules::UsagePreferences(std::string_view agent,
                                                                  std::string_view url) const {
  const std::string path = RobotsMatchPath(url);
  // One a field. Group lines come after the file-level ones and replace
  // them at equal path length: the group names this agent.
  std::vector<UsageLine> best;
  auto consider = [&](const UsageLine& line) {
    if (!RobotsPatternMatches(line.path, path)) return;
    for (UsageLine& b : best) {
      if (b.field != line.field) continue;
      if (line.path.size() >= b.path.size()) b = line;
      return;
    }
    best.push_back(line);
  };
  for (const UsageLine& line : global_usage_) consider(line);
  for (const Group* g : GroupsFor(agent)) {
    for (const UsageLine& line : g->usage) consider(line);
  }
  return best;
}

bool RobotsPatternMatches(std::string_view raw_pattern, std::string_view path) {
  if (raw_pattern.empty()) return true;
  const std::string pattern = NormalizePattern(raw_pattern);  // idempotent
  const bool wildcard = pattern.find('*') != std::string_view::npos || pattern.back() == '$';
  return wildcard ? WildcardMatch(path, pattern) : path.substr(0, pattern.size()) == pattern;
}

std::optional<double> RobotsRules::CrawlDelay(std::string_view agent) const {
  std::optional<double> delay;
  for (const Group* g : GroupsFor(agent)) {
    if (g->crawl_delay && (!delay || *g->crawl_delay > *delay)) delay = g->crawl_delay;
  }
  return delay;
}

std::string_view RobotsProductToken(std::string_view user_agent) {
  size_t n = 0;
  while (n < user_agent.size()) {
    char c = user_agent[n];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-')) break;
    ++n;
  }
  return user_agent.substr(0, n);
}

std::string RobotsMatchPath(std::string_view url) {
  // Mirrors google/robotstxt GetPathParamsQuery: skip "scheme://authority",
  // keep from the first '/', '?' or ';' up to '#'.
  size_t search_start = (url.size() >= 2 && url[0] == '/' && url[1] == '/') ? 2 : 0;
  size_t early_path = url.find_first_of("/?;", search_start);
  size_t protocol_end = url.find("://", search_start);
  if (early_path < protocol_end) protocol_end = std::string_view::npos;
  protocol_end = protocol_end == std::string_view::npos ? search_start : protocol_end + 3;
  size_t path_start = url.find_first_of("/?;", protocol_end);
  if (path_start == std::string_view::npos) return "/";
  size_t hash = url.find('#', search_start);
  if (hash < path_start) return "/";
  std::string_view path = url.substr(path_start, hash == std::string_view::npos
                                                     ? std::string_view::npos
                                                     : hash - path_start);
  std::string out;
  out.reserve(path.size() + 1);
  if (path[0] != '/') out.push_back('/');
  // Upper-case %xx hex, as patterns are normalised.
  for (size_t i = 0; i < path.size(); ++i) {
    out.push_back(path[i]);
    if (path[i] == '%' && i + 2 < path.size() && IsHex(path[i + 1]) && IsHex(path[i + 2])) {
      out.push_back(UpperHex(path[i + 1]));
      out.push_back(UpperHex(path[i + 2]));
      i += 2;
    }
  }
  return out;
}

}  // namespace topicrawl

// Our implementation of jieba's segmentation algorithm (see word_segmenter.h).
// Structure follows jieba/__init__.py (get_DAG, calc, __cut_DAG) and
// jieba/finalseg/__init__.py (viterbi); the data files are jieba's.
#include <array>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "text/utf8_util.h"
#include "text/word_segmenter.h"

namespace topicrawl {
namespace {

constexpr double kNotWord = -std::numeric_limits<double>::infinity();
// jieba's MIN_FLOAT: log-probability of an impossible HMM event.
constexpr double kMinFloat = -3.14e100;

// Prefix dictionary as a trie over code points. Node 0 is the root; an edge
// is the key (parent << 21 | code point). A node's log_prob is
// log(freq / total) when the path spells a word, kNotWord otherwise (a
// prefix only) — jieba stores such prefixes with frequency 0.
struct Trie {
  std::vector<double> log_prob{kNotWord};
  absl::flat_hash_map<uint64_t, uint32_t> edges;
  double total = 0;
  double log_total = 0;

  static uint64_t Key(uint32_t node, char32_t c) {
    return (static_cast<uint64_t>(node) << 21) | c;
  }
  // 0 when there is no such child.
  uint32_t Child(uint32_t node, char32_t c) const {
    auto it = edges.find(Key(node, c));
    return it == edges.end() ? 0 : it->second;
  }
  uint32_t AddPath(const std::u32string& word) {
    uint32_t node = 0;
    for (char32_t c : word) {
      auto [it, inserted] = edges.try_emplace(Key(node, c), 0);
      if (inserted) {
        it->second = static_cast<uint32_t>(log_prob.size());
        log_prob.push_back(kNotWord);
      }
      node = it->second;
    }
    return node;
  }
  // log_prob of the word, kNotWord when it is not a word.
  double WordLogProb(const char32_t* begin, const char32_t* end) const {
    uint32_t node = 0;
    for (const char32_t* p = begin; p != end; ++p) {
      node = Child(node, *p);
      if (node == 0) return kNotWord;
    }
    return log_prob[node];
  }
};

// B, E, M, S in hmm_model.utf8's order.
enum HmmState { kB = 0, kE = 1, kM = 2, kS = 3 };

struct Hmm {
  std::array<double, 4> start{};
  std::array<std::array<double, 4>, 4> trans{};
  absl::flat_hash_map<char32_t, std::array<double, 4>> emit;

  double Emit(int state, char32_t c) const {
    auto it = emit.find(c);
    return it == emit.end() ? kMinFloat : it->second[state];
  }
};

std::u32string DecodeAll(std::string_view s) {
  std::u32string out;
  size_t pos = 0;
  while (pos < s.size()) out.push_back(NextCodePoint(s, &pos));
  return out;
}

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  return std::string(s.substr(b, e - b));
}

StatusOr<std::shared_ptr<const Trie>> LoadTrie(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot open jieba dictionary " + path);
  auto trie = std::make_shared<Trie>();
  trie->edges.reserve(1 << 20);
  std::string line;
  int line_no = 0;
  std::vector<std::pair<uint32_t, double>> freqs;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string word;
    double freq = 0;
    if (!(fields >> word >> freq) || freq < 0) {
      return Status::Error(path + ":" + std::to_string(line_no) +
                           ": expected `word freq [tag]`");
    }
    freqs.emplace_back(trie->AddPath(DecodeAll(word)), freq);
    trie->total += freq;
  }
  if (freqs.empty() || trie->total <= 0) {
    return Status::Error("jieba dictionary " + path + " has no words");
  }
  trie->log_total = std::log(trie->total);
  for (auto [node, freq] : freqs) {
    // A frequency-0 entry is a prefix, not a word (jieba: FREQ.get() falsy).
    trie->log_prob[node] =
        freq > 0 ? std::log(freq) - trie->log_total : kNotWord;
  }
  return std::shared_ptr<const Trie>(std::move(trie));
}

bool ParseDoubles(std::string_view line, double* out, int n) {
  std::istringstream in{std::string(line)};
  for (int i = 0; i < n; ++i) {
    if (!(in >> out[i])) return false;
  }
  return true;
}

Status ParseEmitLine(std::string_view line, int state, Hmm* hmm) {
  size_t pos = 0;
  while (pos < line.size()) {
    size_t comma = line.find(',', pos);
    if (comma == std::string_view::npos) comma = line.size();
    std::string_view item = line.substr(pos, comma - pos);
    pos = comma + 1;
    size_t colon = item.rfind(':');
    if (colon == std::string_view::npos || colon == 0) {
      return Status::Error("bad emission entry `" + std::string(item) + "`");
    }
    size_t cp_pos = 0;
    char32_t c = NextCodePoint(item, &cp_pos);
    auto [it, inserted] = hmm->emit.try_emplace(c);
    auto& probs = it->second;
    if (inserted) probs.fill(kMinFloat);
    probs[state] = std::strtod(std::string(item.substr(colon + 1)).c_str(),
                               nullptr);
  }
  return Status::Ok();
}

StatusOr<std::shared_ptr<const Hmm>> LoadHmm(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot open HMM model " + path);
  auto hmm = std::make_shared<Hmm>();
  std::string line;
  int line_no = 0, record = 0;
  while (std::getline(in, line)) {
    ++line_no;
    line = Trim(line);
    if (line.empty() || line[0] == '#') continue;
    bool ok = true;
    if (record == 0) {
      ok = ParseDoubles(line, hmm->start.data(), 4);
    } else if (record <= 4) {
      ok = ParseDoubles(line, hmm->trans[record - 1].data(), 4);
    } else if (record <= 8) {
      Status s = ParseEmitLine(line, record - 5, hmm.get());
      if (!s.ok()) {
        return Status::Error(path + ":" + std::to_string(line_no) + ": " +
                             s.message());
      }
    }
    if (!ok) {
      return Status::Error(path + ":" + std::to_string(line_no) +
                           ": expected 4 numbers");
    }
    ++record;
  }
  if (record < 9) {
    return Status::Error("HMM model " + path + " is incomplete (" +
                         std::to_string(record) + " of 9 records)");
  }
  return std::shared_ptr<const Hmm>(std::move(hmm));
}

// Process-wide cache: the 5 MB dictionary is parsed once per path.
template <typename T>
StatusOr<std::shared_ptr<const T>> Cached(
    const std::string& path,
    StatusOr<std::shared_ptr<const T>> (*load)(const std::string&)) {
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const T>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(path);
  if (it != cache.end()) return it->second;
  auto loaded = load(path);
  if (loaded.ok()) cache.emplace(path, *loaded);
  return loaded;
}

// Per-thread working arrays of Cut (code points, offsets, the route, the
// HMM's tables): reused from run to run, so cutting a page allocates
// nothing per Han run once a thread has seen a run that long. Cut is not
// re-entered on a thread (it calls no user code), so one set a thread.
struct CutScratch {
  std::vector<char32_t> cps;
  std::vector<size_t> offsets;
  std::vector<size_t> end;
  std::vector<double> score;
  std::vector<std::array<double, 4>> v;
  std::vector<std::array<int, 4>> back;
  std::vector<int> states;
};

CutScratch& ThreadCutScratch() {
  thread_local CutScratch s;
  return s;
}

class JiebaSegmenter : public WordSegmenter {
 public:
  // `user` (may be null) overlays `base`: a word in both takes the user
  // frequency. The overlay keeps the cached 5 MB base shared by every
  // segmenter, whatever its user words.
  JiebaSegmenter(std::shared_ptr<const Trie> base,
                 std::shared_ptr<const Trie> user,
                 std::shared_ptr<const Hmm> hmm)
      : base_(std::move(base)), user_(std::move(user)), hmm_(std::move(hmm)) {}

  void Cut(std::string_view text,
           std::vector<std::string_view>* out) const override;
  std::string_view name() const override {
    return hmm_ ? "jieba" : "jieba-nohmm";
  }

  // Route through the DAG (jieba's calc()): end[i] is the last index of
  // the best first word starting at i.
  // `score` is working space (n + 1 entries after the call).
  void BestRoute(const char32_t* cps, size_t n, std::vector<size_t>* end,
                 std::vector<double>* score) const;
  // log P(word), kNotWord when not a dictionary word.
  double WordLogProb(const char32_t* begin, const char32_t* end) const;
  double log_total() const { return base_->log_total; }

 private:
  // Cuts a run of Han code points; offsets[i] is the byte offset of cps[i]
  // in text (offsets has n + 1 entries).
  void CutHan(std::string_view text, const char32_t* cps,
              const size_t* offsets, size_t n,
              std::vector<std::string_view>* out) const;
  // Jieba's handling of consecutive single characters (__cut_DAG's buf).
  void FlushSingles(std::string_view text, const char32_t* cps,
                    const size_t* offsets, size_t begin, size_t end,
                    std::vector<std::string_view>* out) const;
  void Viterbi(const char32_t* cps, size_t n, std::vector<int>* states,
               CutScratch* scratch) const;

  std::shared_ptr<const Trie> base_;
  std::shared_ptr<const Trie> user_;
  std::shared_ptr<const Hmm> hmm_;
};

double JiebaSegmenter::WordLogProb(const char32_t* begin,
                                   const char32_t* end) const {
  double lp = user_ ? user_->WordLogProb(begin, end) : kNotWord;
  return lp != kNotWord ? lp : base_->WordLogProb(begin, end);
}

void JiebaSegmenter::BestRoute(const char32_t* cps, size_t n,
                               std::vector<size_t>* end,
                               std::vector<double>* score_buffer) const {
  score_buffer->assign(n + 1, 0.0);
  std::vector<double>& score = *score_buffer;
  end->assign(n, 0);
  for (size_t i = n; i-- > 0;) {
    double best = kNotWord;
    size_t best_end = i;
    uint32_t base_node = 0, user_node = 0;
    bool in_base = true, in_user = user_ != nullptr;
    for (size_t j = i; j < n; ++j) {
      if (in_base) in_base = (base_node = base_->Child(base_node, cps[j])) != 0;
      if (in_user) in_user = (user_node = user_->Child(user_node, cps[j])) != 0;
      if (!in_base && !in_user) break;
      double lp = in_user ? user_->log_prob[user_node] : kNotWord;
      if (lp == kNotWord && in_base) lp = base_->log_prob[base_node];
      if (lp == kNotWord) continue;
      // >= : on equal scores jieba's max() over (score, j) prefers larger j.
      double s = lp + score[j + 1];
      if (s >= best) {
        best = s;
        best_end = j;
      }
    }
    if (best == kNotWord) {  // not in the DAG: the character alone, freq 1
      best = -base_->log_total + score[i + 1];
      best_end = i;
    }
    score[i] = best;
    (*end)[i] = best_end;
  }
}

void JiebaSegmenter::Viterbi(const char32_t* cps, size_t n,
                             std::vector<int>* states,
                             CutScratch* scratch) const {
  // Allowed predecessors of each state (jieba finalseg PrevStatus).
  static constexpr int kPrev[4][2] = {
      {kE, kS}, {kB, kM}, {kM, kB}, {kS, kE}};
  // Every entry read below is written first (v[0] here, v[t] / back[t] in
  // the loop), so the reused arrays need no clearing.
  scratch->v.resize(n);
  scratch->back.resize(n);
  std::vector<std::array<double, 4>>& v = scratch->v;
  std::vector<std::array<int, 4>>& back = scratch->back;
  for (int s = 0; s < 4; ++s) v[0][s] = hmm_->start[s] + hmm_->Emit(s, cps[0]);
  for (size_t t = 1; t < n; ++t) {
    for (int y = 0; y < 4; ++y) {
      double emit = hmm_->Emit(y, cps[t]);
      double best = -std::numeric_limits<double>::infinity();
      int arg = kPrev[y][0];
      for (int y0 : kPrev[y]) {
        double p = v[t - 1][y0] + hmm_->trans[y0][y] + emit;
        if (p > best) {
          best = p;
          arg = y0;
        }
      }
      v[t][y] = best;
      back[t][y] = arg;
    }
  }
  // The last character must end a word.
  int state = v[n - 1][kE] >= v[n - 1][kS] ? kE : kS;
  states->assign(n, kS);
  for (size_t t = n; t-- > 0;) {
    (*states)[t] = state;
    state = back[t][state];
  }
}

void JiebaSegmenter::FlushSingles(std::string_view text, const char32_t* cps,
                                  const size_t* offsets, size_t begin,
                                  size_t end,
                                  std::vector<std::string_view>* out) const {
  auto emit = [&](size_t b, size_t e) {
    out->push_back(text.substr(offsets[b], offsets[e] - offsets[b]));
  };
  const size_t n = end - begin;
  if (n == 0) return;
  if (n == 1 || !hmm_ || WordLogProb(cps + begin, cps + end) != kNotWord) {
    for (size_t i = begin; i < end; ++i) emit(i, i + 1);
    return;
  }
  CutScratch& scratch = ThreadCutScratch();
  std::vector<int>& states = scratch.states;
  Viterbi(cps + begin, n, &states, &scratch);
  size_t word_begin = begin;
  for (size_t t = 0; t < n; ++t) {
    if (states[t] == kB) word_begin = begin + t;
    if (states[t] == kE) emit(word_begin, begin + t + 1);
    if (states[t] == kS) emit(begin + t, begin + t + 1);
  }
}

void JiebaSegmenter::CutHan(std::string_view text, const char32_t* cps,
                            const size_t* offsets, size_t n,
                            std::vector<std::string_view>* out) const {
  CutScratch& scratch = ThreadCutScratch();
  std::vector<size_t>& end = scratch.end;
  BestRoute(cps, n, &end, &scratch.score);
  size_t singles_begin = 0;
  size_t x = 0;
  while (x < n) {
    size_t y = end[x] + 1;
    if (y - x > 1) {
      FlushSingles(text, cps, offsets, singles_begin, x, out);
      out->push_back(text.substr(offsets[x], offsets[y] - offsets[x]));
      singles_begin = y;
    }
    x = y;
  }
  FlushSingles(text, cps, offsets, singles_begin, n, out);
}

void JiebaSegmenter::Cut(std::string_view text,
                         std::vector<std::string_view>* out) const {
  CutScratch& scratch = ThreadCutScratch();
  std::vector<char32_t>& cps = scratch.cps;
  std::vector<size_t>& offsets = scratch.offsets;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t start = pos;
    char32_t c = NextCodePoint(text, &pos);
    if (IsHanCodePoint(c)) {
      cps.clear();
      offsets.clear();
      cps.push_back(c);
      offsets.push_back(start);
      size_t next = pos;
      while (next < text.size()) {
        size_t p = next;
        char32_t d = NextCodePoint(text, &p);
        if (!IsHanCodePoint(d)) break;
        cps.push_back(d);
        offsets.push_back(next);
        next = p;
      }
      offsets.push_back(next);
      CutHan(text, cps.data(), offsets.data(), cps.size(), out);
      pos = next;
    } else if (IsWordCodePoint(c)) {
      size_t next = pos;
      while (next < text.size()) {
        size_t p = next;
        char32_t d = NextCodePoint(text, &p);
        if (IsHanCodePoint(d) || !IsWordCodePoint(d)) break;
        next = p;
      }
      out->push_back(text.substr(start, next - start));
      pos = next;
    } else if (!IsSpaceCodePoint(c)) {
      out->push_back(text.substr(start, pos - start));
    }
  }
}

// jieba's suggest_freq(word, tune=True): the smallest frequency at which
// the dictionary route prefers the whole word over its current cut.
double SuggestFreq(const JiebaSegmenter& seg, const std::u32string& word) {
  std::vector<size_t> end;
  std::vector<double> score;
  seg.BestRoute(word.data(), word.size(), &end, &score);
  double log_p = 0;
  for (size_t x = 0; x < word.size(); x = end[x] + 1) {
    double lp = seg.WordLogProb(word.data() + x, word.data() + end[x] + 1);
    log_p += lp == kNotWord ? -seg.log_total() : lp;
  }
  double freq = std::floor(std::exp(log_p + seg.log_total())) + 1;
  double existing = seg.WordLogProb(word.data(), word.data() + word.size());
  if (existing != kNotWord) {
    freq = std::max(freq, std::exp(existing + seg.log_total()));
  }
  return freq;
}

}  // namespace

StatusOr<std::unique_ptr<WordSegmenter>> NewJiebaSegmenter(
    const JiebaOptions& options) {
  auto trie = Cached<Trie>(options.dict_path, &LoadTrie);
  if (!trie.ok()) return trie.status();
  std::shared_ptr<const Hmm> hmm;
  if (!options.hmm_path.empty()) {
    auto loaded = Cached<Hmm>(options.hmm_path, &LoadHmm);
    if (!loaded.ok()) return loaded.status();
    hmm = *loaded;
  }
  std::shared_ptr<const Trie> base = *trie;
  if (options.user_words.empty()) {
    return std::unique_ptr<WordSegmenter>(new JiebaSegmenter(base, nullptr, hmm));
  }
  auto user = std::make_shared<Trie>();
  user->total = base->total;
  user->log_total = base->log_total;
  for (const UserWord& uw : options.user_words) {
    std::u32string word = DecodeAll(uw.word);
    if (word.empty()) continue;
    double freq = uw.freq;
    if (freq <= 0) freq = SuggestFreq(JiebaSegmenter(base, user, nullptr), word);
    uint32_t node = user->AddPath(word);
    user->log_prob[node] = std::log(freq) - user->log_total;
  }
  return std::unique_ptr<WordSegmenter>(
      new JiebaSegmenter(std::move(base), std::move(user), hmm));
}

StatusOr<std::vector<UserWord>> ReadUserDictionary(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot open user dictionary " + path);
  std::vector<UserWord> words;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line_no == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
    line = Trim(line);
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    UserWord uw;
    fields >> uw.word;
    std::string freq;
    if (fields >> freq) {
      char* end = nullptr;
      uw.freq = std::strtod(freq.c_str(), &end);
      if (end == freq.c_str() || *end != '\0' || !(uw.freq > 0)) {
        return Status::Error(path + ":" + std::to_string(line_no) +
                             ": bad frequency `" + freq + "`");
      }
    }
    words.push_back(std::move(uw));
  }
  return words;
}

}  // namespace topicrawl

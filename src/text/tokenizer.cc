#include "text/tokenizer.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include <opencc/SimpleConverter.hpp>
#include <unicode/bytestream.h>
#include <unicode/normalizer2.h>
#include <unicode/utf8.h>

#include "text/utf8_util.h"

#ifndef TOPICRAWL_DEFAULT_SOURCE_DIR
#define TOPICRAWL_DEFAULT_SOURCE_DIR "."
#endif

namespace topicrawl {
namespace {

std::string EnvOr(const char* name, std::string fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

bool IsConnector(char32_t c) {
  return c == '.' || c == '-' || c == '_' || c == '+' || c == '#' ||
         c == '\'' || c == 0x2019 || c == '&';
}

bool IsAsciiDigitsAndPunct(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
    if (std::isalpha(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

bool ContainsHan(std::string_view s) {
  size_t pos = 0;
  while (pos < s.size()) {
    if (IsHanCodePoint(NextCodePoint(s, &pos))) return true;
  }
  return false;
}

Status LoadWordList(const std::string& path,
                    StringSet* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot open stop-word list " + path);
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' ||
                             line.back() == '\t')) {
      line.pop_back();
    }
    if (line.empty() || line[0] == '#') continue;
    out->insert(FoldCase(line));
  }
  return Status::Ok();
}

// OpenCC looks configs up relative to the working directory; resolve bare
// names against the Debian data directory first.
std::string ResolveOpenccConfig(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  std::string system = "/usr/share/opencc/" + name;
  return std::filesystem::exists(system) ? system : name;
}

// The Traditional characters: Han code points that OpenCC's character-level
// t2s.json (TSCharacters + TSPhrases, no Taiwan variants or phrases) changes
// when they stand alone. Computed by converting every Han code point, one
// per line, in one call (~0.1 s, once per process). tw2sp itself is not
// used for this: it also changes Simplified characters (么 -> 幺, 抬 -> 擡)
// and would flag every Simplified page. 乾 is excluded: t2s maps it to 干,
// but it is also a Simplified character (乾隆, 乾坤).
std::shared_ptr<const std::vector<bool>> TraditionalSet() {
  static std::mutex mu;
  static std::shared_ptr<const std::vector<bool>> cached;
  std::lock_guard<std::mutex> lock(mu);
  if (cached) return cached;
  auto set = std::make_shared<std::vector<bool>>(0x31350, false);
  std::unique_ptr<opencc::SimpleConverter> t2s;
  try {
    t2s = std::make_unique<opencc::SimpleConverter>(ResolveOpenccConfig("t2s.json"));
  } catch (const std::exception&) {
    set->flip();  // no t2s config: treat every character as Traditional
    cached = std::move(set);
    return cached;
  }
  const opencc::SimpleConverter& converter = *t2s;
  std::vector<char32_t> cps;
  std::string all;
  auto append = [&](char32_t c) {
    char buf[4];
    int32_t len = 0;
    U8_APPEND_UNSAFE(buf, len, static_cast<UChar32>(c));
    all.append(buf, len);
    all += '\n';
    cps.push_back(c);
  };
  for (char32_t c = 0x3400; c <= 0x3134F; ++c) {
    if (IsHanCodePoint(c)) append(c);
  }
  std::string converted = converter.Convert(all.data(), all.size());
  size_t in_pos = 0, out_pos = 0;
  for (char32_t c : cps) {
    size_t in_end = all.find('\n', in_pos);
    size_t out_end = converted.find('\n', out_pos);
    if (out_end == std::string::npos) break;
    if (all.compare(in_pos, in_end - in_pos, converted, out_pos,
                    out_end - out_pos) != 0) {
      (*set)[c] = c != U'乾';
    }
    in_pos = in_end + 1;
    out_pos = out_end + 1;
  }
  cached = std::move(set);
  return cached;
}

StatusOr<std::unique_ptr<WordSegmenter>> MakeSegmenter(
    const TokenizerOptions& options, std::vector<UserWord> user_words) {
  if (options.force_icu) return NewIcuSegmenter();
  std::string dir =
      options.jieba_dir.empty() ? DefaultJiebaDir() : options.jieba_dir;
  JiebaOptions jieba;
  jieba.dict_path = dir + "/jieba.dict.utf8";
  if (!std::filesystem::exists(jieba.dict_path)) {
    static std::once_flag logged;
    std::call_once(logged, [&] {
      std::fprintf(stderr,
                   "topicrawl text: jieba dictionary %s not found (run "
                   "scripts/setup); falling back to ICU word segmentation\n",
                   jieba.dict_path.c_str());
    });
    return NewIcuSegmenter();
  }
  if (options.use_hmm && std::filesystem::exists(dir + "/hmm_model.utf8")) {
    jieba.hmm_path = dir + "/hmm_model.utf8";
  }
  jieba.user_words = std::move(user_words);
  return NewJiebaSegmenter(jieba);
}

}  // namespace

std::string DefaultJiebaDir() {
  return EnvOr("TOPICRAWL_JIEBA_DIR",
               TOPICRAWL_DEFAULT_SOURCE_DIR "/third_party_data/jieba");
}

std::string DefaultStopwordsDir() {
  return EnvOr("TOPICRAWL_DATA_DIR", TOPICRAWL_DEFAULT_SOURCE_DIR "/data") +
         "/stopwords";
}

std::string FoldCase(std::string_view utf8) {
  std::string out;
  FoldCaseInto(utf8, &out);
  return out;
}

void FoldCaseInto(std::string_view utf8, std::string* out) {
  bool ascii = true;
  for (char c : utf8) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
  if (ascii) {
    out->assign(utf8);
    for (char& c : *out) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return;
  }
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfkc_cf = icu::Normalizer2::getNFKCCasefoldInstance(status);
  if (U_FAILURE(status)) {
    out->assign(utf8);
    return;
  }
  out->clear();
  out->reserve(utf8.size());
  icu::StringByteSink<std::string> sink(out);
  nfkc_cf->normalizeUTF8(0, icu::StringPiece(utf8.data(), utf8.size()), sink,
                         nullptr, status);
  if (U_FAILURE(status)) out->assign(utf8);
}

StatusOr<std::unique_ptr<Tokenizer>> Tokenizer::Create(
    const TokenizerOptions& options) {
  std::unique_ptr<Tokenizer> t(new Tokenizer());
  t->options_ = options;
  if (!options.opencc_config.empty()) {
    std::string config = ResolveOpenccConfig(options.opencc_config);
    try {
      t->converter_ = std::make_unique<opencc::SimpleConverter>(config);
      t->traditional_ = TraditionalSet();
    } catch (const std::exception& e) {
      return Status::Error("OpenCC config " + config + ": " + e.what());
    }
  }
  if (options.remove_stop_words) {
    std::string dir = options.stopwords_dir.empty() ? DefaultStopwordsDir()
                                                    : options.stopwords_dir;
    for (const char* lang : {"en", "zh"}) {
      Status s = LoadWordList(dir + "/" + lang + ".txt", &t->stop_words_);
      if (!s.ok()) return s;
    }
  }
  std::vector<UserWord> words = options.user_words;
  if (!options.user_dict_path.empty()) {
    auto file = ReadUserDictionary(options.user_dict_path);
    if (!file.ok()) return file.status();
    words.insert(words.end(), file->begin(), file->end());
  }
  // Dictionary words are normalised like page text so they match it.
  std::vector<UserWord> han_words;
  for (UserWord& w : words) {
    w.word = t->NormalizeTerm(w.word);
    if (w.word.empty()) continue;
    // A word the user asked for is never a stop word.
    t->stop_words_.erase(w.word);
    if (ContainsHan(w.word)) {
      han_words.push_back(w);
    } else {
      t->latin_words_.insert(w.word);
    }
  }
  auto segmenter = MakeSegmenter(options, std::move(han_words));
  if (!segmenter.ok()) return segmenter.status();
  t->segmenter_ = std::move(*segmenter);
  return t;
}

Tokenizer::~Tokenizer() = default;

std::string Tokenizer::NormalizeTerm(std::string_view term) const {
  std::string folded = FoldCase(term);
  if (converter_ && HasTraditional(folded)) {
    return converter_->Convert(folded.data(), folded.size());
  }
  return folded;
}

bool Tokenizer::IsStopWord(std::string_view token) const {
  return stop_words_.contains(token);
}

std::vector<std::string> Tokenizer::Tokenize(std::string_view utf8) const {
  std::vector<std::string> out;
  Tokenize(utf8, &out);
  return out;
}

namespace {
// The sink of Tokenize(text, out): one string per token.
struct AppendTo {
  std::vector<std::string>* out;
  void operator()(std::string_view token) const { out->emplace_back(token); }
};
}  // namespace

void Tokenizer::Tokenize(std::string_view utf8,
                         std::vector<std::string>* out) const {
  AppendTo sink{out};
  TokenizeInto(utf8, sink);
}

void Tokenizer::ForEachToken(std::string_view utf8,
                             absl::FunctionRef<void(std::string_view)> sink) const {
  TokenizeInto(utf8, sink);
}

// Per-thread buffers of a Tokenize call (the folded text, a Han run's
// words and its conversion), reused from call to call so that a call
// allocates nothing per run once warm. A sink that tokenises again on the
// same thread (nested call) gets a fresh set.
struct TokenizeBuffers {
  std::string folded;
  std::string converted;
  std::vector<std::string_view> words;
  bool busy = false;
};

namespace {

class BuffersLease {
 public:
  BuffersLease() {
    thread_local TokenizeBuffers shared;
    if (shared.busy) {
      own_ = std::make_unique<TokenizeBuffers>();
      b_ = own_.get();
    } else {
      b_ = &shared;
    }
    b_->busy = true;
  }
  ~BuffersLease() { b_->busy = false; }
  BuffersLease(const BuffersLease&) = delete;
  BuffersLease& operator=(const BuffersLease&) = delete;
  TokenizeBuffers& operator*() const { return *b_; }

 private:
  TokenizeBuffers* b_;
  std::unique_ptr<TokenizeBuffers> own_;
};
}  // namespace

template <typename Sink>
void Tokenizer::TokenizeInto(std::string_view utf8, Sink& out) const {
  BuffersLease lease;
  TokenizeBuffers& buffers = *lease;
  FoldCaseInto(utf8, &buffers.folded);
  const std::string_view s = buffers.folded;
  size_t pos = 0;
  while (pos < s.size()) {
    const size_t start = pos;
    const char32_t c = NextCodePoint(s, &pos);
    if (IsHanCodePoint(c)) {
      size_t end = pos;
      for (size_t p = end; p < s.size() && IsHanCodePoint(NextCodePoint(s, &p));)
        end = p;
      TokenizeHan(s.substr(start, end - start), buffers, out);
      pos = end;
    } else if (IsWordCodePoint(c)) {
      // A word run: word characters joined by connectors.
      size_t end = pos;
      for (size_t p = end; p < s.size();) {
        char32_t d = NextCodePoint(s, &p);
        if (IsHanCodePoint(d) || !(IsWordCodePoint(d) || IsConnector(d))) break;
        end = p;
      }
      TokenizeWordRun(s.substr(start, end - start), out);
      pos = end;
    }
    // Anything else is a separator.
  }
}

bool Tokenizer::HasTraditional(std::string_view folded) const {
  const std::vector<bool>& set = *traditional_;
  size_t pos = 0;
  while (pos < folded.size()) {
    char32_t c = NextCodePoint(folded, &pos);
    if (c < set.size() && set[c]) return true;
  }
  return false;
}

template <typename Sink>
void Tokenizer::TokenizeHan(std::string_view run, TokenizeBuffers& buffers,
                            Sink& out) const {
  std::string& converted = buffers.converted;
  if (converter_ && HasTraditional(run)) {
    // Only runs with a Traditional character are converted: tw2sp damages
    // Simplified text (么 -> 幺, 抬 -> 擡) and costs more than segmenting.
    // Within a converted run, Taiwan phrases of shared characters convert
    // too (程式設計 -> 编程). Run by run also skips the ASCII of mixed pages.
    converted = converter_->Convert(run.data(), run.size());
    run = converted;
  }
  std::vector<std::string_view>& words = buffers.words;
  words.clear();
  segmenter_->Cut(run, &words);
  for (std::string_view w : words) Emit(w, out);
}

template <typename Sink>
void Tokenizer::TokenizeWordRun(std::string_view run, Sink& out) const {
  if (!latin_words_.empty()) {
    // "c++" stays whole, also at the end of a sentence ("c++.").
    std::string_view trimmed = run;
    while (!trimmed.empty()) {
      if (latin_words_.contains(trimmed)) {
        out(trimmed);
        return;
      }
      if (!IsConnector(static_cast<unsigned char>(trimmed.back()))) break;
      trimmed.remove_suffix(1);
    }
  }
  size_t piece_start = 0, pos = 0;
  while (pos < run.size()) {
    size_t before = pos;
    char32_t c = NextCodePoint(run, &pos);
    if (IsConnector(c)) {
      Emit(run.substr(piece_start, before - piece_start), out);
      piece_start = pos;
    }
  }
  Emit(run.substr(piece_start), out);
}

template <typename Sink>
void Tokenizer::Emit(std::string_view token, Sink& out) const {
  if (token.empty()) return;
  if (stop_words_.contains(token)) return;
  if (!options_.keep_numbers && IsAsciiDigitsAndPunct(token) &&
      !latin_words_.contains(token)) {
    return;
  }
  out(token);
}

}  // namespace topicrawl

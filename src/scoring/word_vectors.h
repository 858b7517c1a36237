// WordVectors: word embeddings for seed 002's SDTP (002_dc7a58c43ca85137
// §4.1, "基于Word2vec"), trained on the crawl's own text with fastText's
// skipgram (Debian libfasttext-dev; never downloaded) and held as one flat
// float32 array of unit vectors looked up by a dense word id, plus each
// word's IDF over the training documents (eq. 8's TF-IDF needs an IDF for
// every word of a page, not only the topic terms).
//
// Training input: one document a line, tokens separated by single spaces —
// the output of our Tokenizer, so Chinese text arrives already segmented
// and normalised (SdtpCorpus writes it). Subword n-grams are off (maxn = 0):
// a word's vector is its own row, and an unknown word has none.
//
// Thread-safety: immutable after Train/Load; every const method may be
// called from many threads.
#ifndef TOPICRAWL_SCORING_WORD_VECTORS_H_
#define TOPICRAWL_SCORING_WORD_VECTORS_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "text/utf8_util.h"

namespace topicrawl {

struct WordVectorOptions {
  int dim = 64;         // vector size (fastText -dim)
  int epoch = 5;        // passes over the corpus (-epoch)
  int min_count = 3;    // words seen fewer times get no vector (-minCount)
  int window = 5;       // context window (-ws)
  int negatives = 5;    // negative samples (-neg)
  double learning_rate = 0.05;  // (-lr)
  int threads = 1;      // > 1 is faster but not reproducible (hogwild)
  int seed = 1;         // fastText's RNG seed
  // Subtract the mean word vector and renormalise (Centered below);
  // [strategy.tda] center. Off by default until measured on both webs
  // (docs/strategies/tda.md, `tda judge` reports both).
  bool center = false;
  // Not topic keys. Checked while training: true stops it (Train returns
  // an error saying it was cancelled). May be null.
  const std::atomic<bool>* cancel = nullptr;
  // Called from fastText's training threads (several at once when threads
  // > 1) now and then with the share done (0..1)
  // and fastText's estimate of the seconds left. May be empty.
  std::function<void(double done, double eta_s)> progress;
};

class WordVectors {
 public:
  static constexpr uint32_t kNoWord = 0xFFFFFFFFu;

  // Trains skipgram vectors on `corpus_path` (see above) and computes the
  // IDF of each kept word over the corpus lines: idf = ln(N / df) with N
  // the number of lines. Errors: unreadable file, empty vocabulary (fewer
  // than min_count occurrences of every word), fastText exceptions, a
  // cancel (options.cancel).
  static StatusOr<std::shared_ptr<const WordVectors>> Train(
      const std::string& corpus_path, const WordVectorOptions& options);
  // From words, their vectors (rows of `dim`, normalised here) and IDFs.
  static std::shared_ptr<const WordVectors> FromRows(
      std::vector<std::string> words, std::vector<float> rows, int dim,
      std::vector<float> idf, uint32_t documents);

  // The vectors with their common direction removed: every unit row minus
  // the mean of all rows, renormalised (the first step of "all-but-the-top",
  // Mu & Viswanath, ICLR 2018). Skipgram vectors share a large mean
  // component, so raw cosines of unrelated words and, summed over a page,
  // of unrelated documents are far above 0; centred, an unrelated word or
  // page is near 0 and a sum of vectors points at what is particular to it.
  static std::shared_ptr<const WordVectors> Centered(const WordVectors& v);

  // Binary file "TDAWV1": dim, words, documents, then per word its UTF-8
  // bytes, IDF and vector. Load errors name the file.
  Status Save(const std::string& path) const;
  static StatusOr<std::shared_ptr<const WordVectors>> Load(const std::string& path);

  // kNoWord when the word has no vector.
  uint32_t Id(std::string_view word) const;
  // REQUIRES: id < size().
  std::span<const float> Vector(uint32_t id) const {
    return {rows_.data() + size_t{id} * dim_, static_cast<size_t>(dim_)};
  }
  float Idf(uint32_t id) const { return idf_[id]; }
  const std::string& Word(uint32_t id) const { return words_[id]; }
  // Cosine of two words' vectors (unit vectors: the dot product).
  float Similarity(uint32_t a, uint32_t b) const;
  // The k words nearest to `id` (excluding itself), by cosine.
  std::vector<std::pair<uint32_t, float>> Nearest(uint32_t id, size_t k) const;

  size_t size() const { return words_.size(); }
  int dim() const { return dim_; }
  uint32_t documents() const { return documents_; }

 private:
  WordVectors() = default;

  int dim_ = 0;
  uint32_t documents_ = 0;
  std::vector<std::string> words_;
  std::vector<float> rows_;  // size() x dim_, unit length
  std::vector<float> idf_;
  StringMap<uint32_t> ids_;
};

// Dot product of two float spans of equal length.
float Dot(std::span<const float> a, std::span<const float> b);

}  // namespace topicrawl

#endif  // TOPICRAWL_SCORING_WORD_VECTORS_H_

#include "scoring/word_vectors.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>

#include <fasttext/fasttext.h>

namespace topicrawl {
namespace {

constexpr char kMagic[8] = {'T', 'D', 'A', 'W', 'V', '1', '\n', '\0'};

template <typename T>
void Put(std::ostream& out, const T& v) {
  out.write(reinterpret_cast<const char*>(&v), sizeof v);
}
template <typename T>
bool Get(std::istream& in, T* v) {
  return static_cast<bool>(in.read(reinterpret_cast<char*>(v), sizeof *v));
}

// Document frequency of each vocabulary word over the corpus lines.
StatusOr<uint32_t> CountDocumentFrequencies(const std::string& path,
                                            const StringMap<uint32_t>& ids,
                                            std::vector<uint32_t>* df) {
  std::ifstream in(path);
  if (!in) return Status::Error("cannot read " + path);
  df->assign(ids.size(), 0);
  std::vector<uint32_t> last_doc(ids.size(), 0);
  std::string line;
  uint32_t docs = 0;
  while (std::getline(in, line)) {
    ++docs;
    std::string_view rest(line);
    while (!rest.empty()) {
      size_t sp = rest.find(' ');
      std::string_view tok = rest.substr(0, sp);
      rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp + 1);
      auto it = ids.find(tok);
      if (it == ids.end() || last_doc[it->second] == docs) continue;
      last_doc[it->second] = docs;
      ++(*df)[it->second];
    }
  }
  return docs;
}

}  // namespace

float Dot(std::span<const float> a, std::span<const float> b) {
  float s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

StatusOr<std::shared_ptr<const WordVectors>> WordVectors::Train(
    const std::string& corpus_path, const WordVectorOptions& options) {
  fasttext::Args args;
  args.input = corpus_path;
  args.model = fasttext::model_name::sg;
  args.dim = options.dim;
  args.epoch = options.epoch;
  args.minCount = options.min_count;
  args.ws = options.window;
  args.neg = options.negatives;
  args.lr = options.learning_rate;
  args.thread = std::max(1, options.threads);
  args.seed = options.seed;
  args.minn = 0;
  args.maxn = 0;     // no subwords: one row per word ...
  args.bucket = 0;   // ... and no 2M-row n-gram table
  args.verbose = 0;
  auto cancelled = [&options] { return options.cancel != nullptr && options.cancel->load(); };
  if (cancelled()) return Status::Error("word-vector training cancelled");
  fasttext::FastText ft;
  // fastText calls back from its training threads every 64 lines each:
  // a cancel ends training there (FastText::abort, then train() throws).
  auto callback = [&](float progress, float, double, double, int64_t eta) {
    if (cancelled()) {
      ft.abort();
      return;
    }
    if (options.progress) options.progress(progress, static_cast<double>(eta));
  };
  try {
    ft.train(args, callback);
  } catch (const std::exception& e) {
    if (cancelled()) return Status::Error("word-vector training cancelled");
    return Status::Error("fastText training on " + corpus_path + ": " + e.what());
  }
  if (cancelled()) return Status::Error("word-vector training cancelled");
  auto dict = ft.getDictionary();
  const int n = dict->nwords();
  std::vector<std::string> words(n);
  std::vector<float> rows(size_t(n) * options.dim);
  fasttext::Vector v(options.dim);
  for (int i = 0; i < n; ++i) {
    words[i] = dict->getWord(i);
    ft.getWordVector(v, words[i]);
    std::copy(v.data(), v.data() + options.dim, rows.begin() + size_t(i) * options.dim);
  }
  StringMap<uint32_t> ids;
  for (int i = 0; i < n; ++i) ids.emplace(words[i], i);
  std::vector<uint32_t> df;
  auto docs = CountDocumentFrequencies(corpus_path, ids, &df);
  if (!docs.ok()) return docs.status();
  std::vector<float> idf(n);
  for (int i = 0; i < n; ++i) {
    idf[i] = static_cast<float>(std::log(std::max<double>(*docs, 1) / std::max<uint32_t>(df[i], 1)));
  }
  auto wv = FromRows(std::move(words), std::move(rows), options.dim, std::move(idf), *docs);
  return options.center ? Centered(*wv) : wv;
}

std::shared_ptr<const WordVectors> WordVectors::Centered(const WordVectors& v) {
  const size_t n = v.size();
  const int dim = v.dim_;
  std::vector<double> mean(dim, 0);
  for (size_t i = 0; i < n; ++i) {
    const float* r = v.rows_.data() + i * dim;
    for (int k = 0; k < dim; ++k) mean[k] += r[k];
  }
  for (double& m : mean) m /= std::max<size_t>(n, 1);
  std::vector<float> rows(v.rows_.size());
  for (size_t i = 0; i < n; ++i) {
    const float* r = v.rows_.data() + i * dim;
    float* o = rows.data() + i * dim;
    for (int k = 0; k < dim; ++k) o[k] = static_cast<float>(r[k] - mean[k]);
  }
  return FromRows(v.words_, std::move(rows), dim, v.idf_, v.documents_);  // renormalises
}

std::shared_ptr<const WordVectors> WordVectors::FromRows(
    std::vector<std::string> words, std::vector<float> rows, int dim,
    std::vector<float> idf, uint32_t documents) {
  std::shared_ptr<WordVectors> wv(new WordVectors());
  wv->dim_ = dim;
  wv->documents_ = documents;
  wv->words_ = std::move(words);
  wv->rows_ = std::move(rows);
  wv->idf_ = std::move(idf);
  wv->idf_.resize(wv->words_.size(), 0);
  wv->rows_.resize(wv->words_.size() * size_t(dim), 0);
  for (size_t i = 0; i < wv->words_.size(); ++i) {
    float* r = wv->rows_.data() + i * dim;
    double norm = 0;
    for (int k = 0; k < dim; ++k) norm += double(r[k]) * r[k];
    if (norm > 0) {
      const float inv = static_cast<float>(1 / std::sqrt(norm));
      for (int k = 0; k < dim; ++k) r[k] *= inv;
    }
    wv->ids_.emplace(wv->words_[i], static_cast<uint32_t>(i));
  }
  return wv;
}

uint32_t WordVectors::Id(std::string_view word) const {
  auto it = ids_.find(word);
  return it == ids_.end() ? kNoWord : it->second;
}

float WordVectors::Similarity(uint32_t a, uint32_t b) const {
  return Dot(Vector(a), Vector(b));
}

std::vector<std::pair<uint32_t, float>> WordVectors::Nearest(uint32_t id,
                                                             size_t k) const {
  std::vector<std::pair<uint32_t, float>> all;
  all.reserve(size());
  for (uint32_t i = 0; i < size(); ++i) {
    if (i != id) all.emplace_back(i, Similarity(id, i));
  }
  k = std::min(k, all.size());
  std::partial_sort(all.begin(), all.begin() + k, all.end(),
                    [](const auto& a, const auto& b) { return a.second > b.second; });
  all.resize(k);
  return all;
}

Status WordVectors::Save(const std::string& path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::Error("cannot write " + path);
  out.write(kMagic, sizeof kMagic);
  Put(out, static_cast<int32_t>(dim_));
  Put(out, static_cast<uint32_t>(words_.size()));
  Put(out, documents_);
  for (size_t i = 0; i < words_.size(); ++i) {
    Put(out, static_cast<uint32_t>(words_[i].size()));
    out.write(words_[i].data(), words_[i].size());
    Put(out, idf_[i]);
    out.write(reinterpret_cast<const char*>(rows_.data() + i * dim_),
              sizeof(float) * dim_);
  }
  out.close();
  if (!out) return Status::Error("error writing " + path);
  return Status::Ok();
}

StatusOr<std::shared_ptr<const WordVectors>> WordVectors::Load(
    const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error("cannot read word vectors " + path);
  char magic[sizeof kMagic];
  int32_t dim = 0;
  uint32_t n = 0, docs = 0;
  if (!in.read(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0) {
    return Status::Error(path + ": not a topicrawl word-vector file (TDAWV1)");
  }
  if (!Get(in, &dim) || !Get(in, &n) || !Get(in, &docs) || dim <= 0 || dim > 4096) {
    return Status::Error(path + ": bad header");
  }
  std::vector<std::string> words(n);
  std::vector<float> idf(n);
  std::vector<float> rows(size_t(n) * dim);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t len = 0;
    if (!Get(in, &len) || len > 4096) return Status::Error(path + ": truncated or corrupt");
    words[i].resize(len);
    if (!in.read(words[i].data(), len) || !Get(in, &idf[i]) ||
        !in.read(reinterpret_cast<char*>(rows.data() + size_t(i) * dim), sizeof(float) * dim)) {
      return Status::Error(path + ": truncated at word " + std::to_string(i));
    }
  }
  return FromRows(std::move(words), std::move(rows), dim, std::move(idf), docs);
}

}  // namespace topicrawl

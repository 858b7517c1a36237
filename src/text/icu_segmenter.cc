// ICU word BreakIterator as the fallback segmenter. ICU's break iterators are
// not thread-safe, so each Cut() works on its own clone of a prototype; the
// clone is taken under a mutex because cloning reads the prototype's caches.
#include <memory>
#include <mutex>

#include <unicode/brkiter.h>
#include <unicode/utext.h>

#include "text/utf8_util.h"
#include "text/word_segmenter.h"

namespace topicrawl {
namespace {

class IcuSegmenter : public WordSegmenter {
 public:
  explicit IcuSegmenter(std::unique_ptr<icu::BreakIterator> prototype)
      : prototype_(std::move(prototype)) {}

  void Cut(std::string_view text,
           std::vector<std::string_view>* out) const override {
    std::unique_ptr<icu::BreakIterator> it;
    {
      std::lock_guard<std::mutex> lock(mu_);
      it.reset(prototype_->clone());
    }
    UErrorCode status = U_ZERO_ERROR;
    UText* ut = utext_openUTF8(nullptr, text.data(),
                               static_cast<int64_t>(text.size()), &status);
    if (U_FAILURE(status)) return;
    it->setText(ut, status);
    if (U_SUCCESS(status)) {
      // With a UTF-8 UText, boundaries are byte offsets.
      int32_t begin = it->first();
      for (int32_t end = it->next(); end != icu::BreakIterator::DONE;
           begin = end, end = it->next()) {
        std::string_view piece = text.substr(begin, end - begin);
        size_t pos = 0;
        bool blank = true;
        while (pos < piece.size() && blank) {
          blank = IsSpaceCodePoint(NextCodePoint(piece, &pos));
        }
        if (!blank) out->push_back(piece);
      }
    }
    utext_close(ut);
  }
  std::string_view name() const override { return "icu"; }

 private:
  mutable std::mutex mu_;
  std::unique_ptr<icu::BreakIterator> prototype_;
};

}  // namespace

StatusOr<std::unique_ptr<WordSegmenter>> NewIcuSegmenter() {
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<icu::BreakIterator> it(
      icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status));
  if (U_FAILURE(status) || !it) {
    return Status::Error(std::string("ICU word break iterator: ") +
                         u_errorName(status));
  }
  return std::unique_ptr<WordSegmenter>(new IcuSegmenter(std::move(it)));
}

}  // namespace topicrawl

// Helpers shared by the SVM module's files (svm_model.cc, svm_train.cc,
// svm_model_io.cc); not part of the module's interface.
#ifndef TOPICRAWL_CLASSIFY_SVM_MODEL_INTERNAL_H_
#define TOPICRAWL_CLASSIFY_SVM_MODEL_INTERNAL_H_

#include <string_view>

namespace topicrawl::svm_internal {

// Feature and kind names: [A-Za-z0-9_.-]{1,200} (they go into the model file).
bool ValidName(std::string_view s);

}  // namespace topicrawl::svm_internal

#endif  // TOPICRAWL_CLASSIFY_SVM_MODEL_INTERNAL_H_

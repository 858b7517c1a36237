// How a grid point is scored from its out-of-fold decision values, and the
// decision threshold chosen from them (SvmGridOptions::select and
// tune_threshold). Internal to the SVM training (classify/svm_train.cc);
// declared here so that it is tested on its own.
//
// The decision values are those of the cross-validation over the TRAINING
// data only (each value comes from a model that did not see its example), so
// a threshold chosen here never looks at a test split.
#ifndef TOPICRAWL_CLASSIFY_SVM_SELECTION_H_
#define TOPICRAWL_CLASSIFY_SVM_SELECTION_H_

#include <vector>

#include "classify/svm_model.h"

namespace topicrawl {

struct CvScore {
  double threshold = 0;  // predict 1 when decision > threshold
  double accuracy = 0;   // at that threshold
  double f1 = 0;         // of the positive class, at that threshold
  double score = 0;      // accuracy or f1, per the selection
};

// Accuracy and F1 of "decision > threshold" against labels (0/1).
CvScore ScoreAt(const std::vector<double>& decisions, const std::vector<int>& labels,
                double threshold, SvmSelection select);

// With tune = false, ScoreAt(0). With tune = true, the threshold that
// maximises `select` over every distinct cut of the decision values: a cut
// between two neighbouring distinct values is placed at 0 when 0 lies in
// it, else at their midpoint; "all positive" / "all negative" sit just below
// the smallest / at the largest value. Ties: the threshold nearest 0 (the
// libsvm rule wins a tie).
CvScore BestThreshold(const std::vector<double>& decisions, const std::vector<int>& labels,
                      SvmSelection select, bool tune);

}  // namespace topicrawl

#endif  // TOPICRAWL_CLASSIFY_SVM_SELECTION_H_

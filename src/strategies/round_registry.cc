#include "strategies/round_registry.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "crawl/rounds/policies.h"
#include "strategies/hub/hubs_policy.h"
#include "strategies/signals/signals_policy.h"
#include "strategies/tda/tda_round_policies.h"

namespace topicrawl {
namespace {

using Factory =
    std::function<StatusOr<std::unique_ptr<RoundPolicy>>(const RoundPolicyContext&)>;

const std::vector<std::pair<std::string, Factory>>& Registry() {
  static const auto* registry = new std::vector<std::pair<std::string, Factory>>{
      {"full", NewFullRoundPolicy},
      {"adaptive", NewAdaptiveRoundPolicy},
      {"nutch", NewNutchRoundPolicy},
      {"static", NewStaticRoundPolicy},
      {"topichub", NewTopicHubRoundPolicy},
      {"hubs", NewHubsRoundPolicy},
      {"signals", NewSignalsRoundPolicy},
  };
  return *registry;
}

}  // namespace

StatusOr<std::unique_ptr<RoundPolicy>> MakeRoundPolicy(const std::string& name,
                                                       const RoundPolicyContext& context) {
  for (const auto& [n, factory] : Registry()) {
    if (n == name) return factory(context);
  }
  std::string known;
  for (const auto& n : RoundPolicyNames()) known += (known.empty() ? "" : ", ") + n;
  return Status::Error("unknown round policy '" + name + "'; known: " + known);
}

std::vector<std::string> RoundPolicyNames() {
  std::vector<std::string> names;
  for (const auto& [n, f] : Registry()) names.push_back(n);
  return names;
}

}  // namespace topicrawl

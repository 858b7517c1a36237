// Prints the TRUE page class of a simulated evolution (`web evolve`, model
// news): for every page that evolves, url<TAB>class<TAB>change_p<TAB>edit_p
// with class "index" (a home page or a page with BFS children in the
// evolution's own walk of the base web: web/evolve_plan.h) or "leaf". A bench
// instrument for bench/recrawl/revisit_ranking_sim.py's Bayes bound (docs/guides/rounds.md):
// the evolution draws each page's edit rate from a gamma law per class, and
// the bound is given that class exactly. Nothing in `web evolve` writes the
// class, so the plan is made again from E/evolve.tsv (a pure function of the
// base web, the homes, the hosts and the options); the rates printed must
// equal E/truth/rates.tsv, which recrawl_sim.py checks.
//
//   recrawl_classes E > E-classes.tsv
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "web/evolve_plan.h"
#include "web/evolved_web.h"
#include "web/web_evolver.h"

using namespace topicrawl;
using namespace topicrawl::web;

namespace {

int Fail(const std::string& why) {
  std::fprintf(stderr, "recrawl_classes: %s\n", why.c_str());
  return 1;
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) {
    if (!cur.empty()) out.push_back(cur);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return Fail("usage: recrawl_classes EVOLVED_DIR");
  auto evo = OpenEvolvedWeb(argv[1]);
  if (!evo.ok()) return Fail(evo.status().message());
  const auto& meta = evo->meta;
  auto get = [&](const char* key) {
    auto it = meta.find(key);
    return it == meta.end() ? std::string() : it->second;
  };
  if (evo->mode != "simulated") return Fail("not a simulated evolution: " + evo->dir);
  EvolveOptions o;
  if (!ParseEvolveModel(get("model"), &o.model)) return Fail("unknown model " + get("model"));
  o.rounds = std::atoi(get("rounds").c_str());
  o.seed = std::strtoull(get("seed").c_str(), nullptr, 10);
  o.new_rate = std::atof(get("new_rate").c_str());
  o.change_rate = std::atof(get("change_rate").c_str());
  o.gone_rate = std::atof(get("gone_rate").c_str());
  o.hidden_at_start = std::atof(get("hidden_at_start").c_str());
  o.rate_shape = std::atof(get("rate_shape").c_str());
  o.index_change_share = std::atof(get("index_change_share").c_str());
  o.volatile_share = std::atof(get("volatile_share").c_str());
  o.volatile_change_share = std::atof(get("volatile_change_share").c_str());

  auto base = LoadBaseWeb(get("base"));
  if (!base.ok()) return Fail(base.status().message());
  const size_t n = base->urls.size();
  // The graph web_evolver.cc planned on: the same function, the same inputs.
  const std::string hosts_meta = get("hosts"), homes = get("homes");
  std::vector<std::string> hosts;
  if (!hosts_meta.empty() && hosts_meta != "-") hosts = Split(hosts_meta, ',');
  auto built = BuildEvolveGraph(*base, hosts, homes == "-" ? std::string() : homes);
  if (!built.ok()) return Fail(built.status().message());
  const PageGraph& graph = built->graph;
  auto plan = PlanEvolution(graph, o);
  if (!plan.ok()) return Fail(plan.status().message());
  std::printf("url\tclass\tchange_p\tedit_p\n");
  for (uint32_t i = 0; i < n; ++i) {
    const PagePlan& p = plan->pages[i];
    if (!p.reachable || p.publish_round == kNever) continue;
    PageRate r = TruePageRate(*plan, graph, i);
    std::printf("%s\t%s\t%.6g\t%.6g\n", base->urls[i].c_str(), p.is_volatile ? "index" : "leaf", r.change_p,
                r.edit_p);
  }
  return 0;
}

// Readability's candidate scoring (main_content.h): per-pass counts,
// paragraph scores propagated to ancestors, the top candidates and the
// article they lead to.
#include <algorithm>
#include <string>
#include <vector>

#include "parse/main_content_internal.h"

namespace topicrawl::main_content_internal {
namespace {

int TagBaseScore(myhtml_tag_id_t t) {
  switch (t) {
    case MyHTML_TAG_DIV: return 5;
    case MyHTML_TAG_PRE: case MyHTML_TAG_TD: case MyHTML_TAG_BLOCKQUOTE: return 3;
    case MyHTML_TAG_ADDRESS: case MyHTML_TAG_OL: case MyHTML_TAG_UL: case MyHTML_TAG_DL:
    case MyHTML_TAG_DD: case MyHTML_TAG_DT: case MyHTML_TAG_LI: case MyHTML_TAG_FORM:
      return -3;
    case MyHTML_TAG_H1: case MyHTML_TAG_H2: case MyHTML_TAG_H3: case MyHTML_TAG_H4:
    case MyHTML_TAG_H5: case MyHTML_TAG_H6: case MyHTML_TAG_TH:
      return -5;
    default: return 0;
  }
}

bool IsScorable(const Element& e) {
  switch (e.tag) {
    case MyHTML_TAG_P: case MyHTML_TAG_PRE: case MyHTML_TAG_TD: case MyHTML_TAG_SECTION:
    case MyHTML_TAG_H2: case MyHTML_TAG_H3: case MyHTML_TAG_H4: case MyHTML_TAG_H5:
    case MyHTML_TAG_H6:
      return true;
    case MyHTML_TAG_DIV:
      return !e.has_block_child;
    default:
      return false;
  }
}

// Ends with a sentence: ". " or "." at the end (Readability's test for
// short link-free sibling paragraphs).
bool HasSentenceEnd(myhtml_tree_node_t* node) {
  for (auto* c = myhtml_node_child(node); c != nullptr; c = myhtml_node_next(c)) {
    if (myhtml_node_tag_id(c) != MyHTML_TAG__TEXT) continue;
    size_t len = 0;
    const char* t = myhtml_node_text(c, &len);
    std::string_view s(t == nullptr ? "" : t, t == nullptr ? 0 : len);
    for (size_t p = s.find('.'); p != std::string_view::npos; p = s.find('.', p + 1)) {
      if (p + 1 == s.size() || s[p + 1] == ' ') return true;
    }
    if (s.find("。") != std::string_view::npos) return true;
  }
  return false;
}

// The candidates with the highest scores (link density applied), best
// first: Readability keeps 5.
std::vector<int> TopCandidates(std::vector<Element>& el, size_t n) {
  std::vector<int> top;
  for (size_t i = 0; i < el.size(); ++i) {
    Element& e = el[i];
    if (!e.scored || e.dropped) continue;
    e.score *= 1.0 - e.LinkDensity();
    auto at = std::find_if(top.begin(), top.end(), [&](int t) { return e.score > el[t].score; });
    if (static_cast<size_t>(at - top.begin()) >= n) continue;
    top.insert(at, static_cast<int>(i));
    if (top.size() > n) top.pop_back();
  }
  return top;
}

bool IsAncestor(const std::vector<Element>& el, int ancestor, int node) {
  for (int a = el[node].parent; a >= 0; a = el[a].parent) {
    if (a == ancestor) return true;
  }
  return false;
}

int ElementChildren(const std::vector<Element>& el, int i) {
  int n = 0;
  for (int c = el[i].first_child; c >= 0; c = el[c].next_sibling) n += !el[c].dropped;
  return n;
}

// Readability's moves from the best candidate to a better container: the
// nearest ancestor holding 3 of the other top candidates scoring >= 0.75 of
// it; then up while an ancestor scores more (stopping below a third); then
// up while it is an only child. Element 0 is <body>, never chosen here.
int BetterContainer(std::vector<Element>& el, const std::vector<int>& top) {
  int best = top[0];
  const double best_score = el[best].score;
  std::vector<int> close;
  for (size_t k = 1; k < top.size(); ++k) {
    if (best_score > 0 && el[top[k]].score / best_score >= 0.75) close.push_back(top[k]);
  }
  if (close.size() >= 3) {
    for (int a = el[best].parent; a > 0; a = el[a].parent) {
      int holds = 0;
      for (int c : close) holds += IsAncestor(el, a, c);
      if (holds >= 3) {
        best = a;
        break;
      }
    }
  }
  if (!el[best].scored) {
    el[best].scored = true;
    el[best].score = TagBaseScore(el[best].tag) + el[best].class_weight;
  }
  double last = el[best].score;
  const double floor = last / 3;
  for (int a = el[best].parent; a > 0; a = el[a].parent) {
    if (!el[a].scored) continue;
    if (el[a].score < floor) break;
    if (el[a].score > last) {
      best = a;
      break;
    }
    last = el[a].score;
  }
  while (el[best].parent > 0 && ElementChildren(el, el[best].parent) == 1) best = el[best].parent;
  return best;
}

}  // namespace

// Sets the per-pass fields of every element: what `pass` drops (with its
// subtree), the class weights it uses, and the counts over what is left
// (children come after their parent: a backward sweep adds each element
// into its parent).
void PrepareForPass(std::vector<Element>& el, const Pass& pass) {
  for (size_t i = 0; i < el.size(); ++i) {
    Element& e = el[i];
    e.dropped = e.parent >= 0 &&
                (e.hidden || (pass.strip_unlikely && e.unlikely) || el[e.parent].dropped);
    e.class_weight = pass.weight_classes ? e.own_weight : 0;
    e.chars = e.own_chars;
    e.link_chars = e.own_link_chars;
    e.heading_chars = e.own_heading_chars;
    e.commas = e.own_commas;
    e.p = e.img = e.li = e.input = e.embeds = e.rows = e.cells = e.th = e.list_chars = 0;
    e.scored = false;
    e.score = 0;
  }
  for (size_t i = el.size(); i-- > 1;) {
    const Element& e = el[i];
    if (e.dropped || e.parent < 0) continue;
    Element& p = el[e.parent];
    p.chars += e.chars;
    p.link_chars += e.link_chars;
    p.heading_chars += e.heading_chars;
    p.commas += e.commas;
    p.list_chars += e.tag == MyHTML_TAG_UL || e.tag == MyHTML_TAG_OL ? e.chars : e.list_chars;
    p.p += e.p + (e.tag == MyHTML_TAG_P);
    p.img += e.img + (e.tag == MyHTML_TAG_IMG);
    p.li += e.li + (e.tag == MyHTML_TAG_LI);
    p.input += e.input + (e.tag == MyHTML_TAG_INPUT);
    p.embeds += e.embeds + (e.tag == MyHTML_TAG_EMBED || e.tag == MyHTML_TAG_OBJECT);
    p.rows += e.rows + (e.tag == MyHTML_TAG_TR);
    p.cells += e.cells + (e.tag == MyHTML_TAG_TD || e.tag == MyHTML_TAG_TH);
    p.th += e.th + (e.tag == MyHTML_TAG_TH || e.tag == MyHTML_TAG_CAPTION ||
                    e.tag == MyHTML_TAG_THEAD);
  }
}

// Readability's paragraph scores, propagated to 5 ancestors.
void ScoreParagraphs(std::vector<Element>& el) {
  for (size_t i = 1; i < el.size(); ++i) {
    const Element& e = el[i];
    if (e.dropped || !IsScorable(e) || e.chars < 25) continue;
    const double score = 1.0 + e.commas + std::min(e.chars / 100u, 3u);
    int a = e.parent;
    for (int level = 0; a >= 0 && level < 5; ++level, a = el[a].parent) {
      Element& anc = el[a];
      if (!anc.scored) {
        anc.scored = true;
        anc.score = TagBaseScore(anc.tag) + anc.class_weight;
      }
      anc.score += level == 0 ? score : level == 1 ? score / 2 : score / (level * 3);
    }
  }
}

// The article: the best candidate and the siblings that join it.
std::vector<int> ChooseArticle(std::vector<Element>& el) {
  const std::vector<int> candidates = TopCandidates(el, 5);
  if (candidates.empty() || candidates[0] <= 0) return {0};  // the whole body
  const int top = BetterContainer(el, candidates);
  const double best = el[top].score;
  const int parent = el[top].parent;
  if (parent < 0) return {top};
  const double threshold = std::max(10.0, best * 0.2);
  const std::string top_class(AttrOf(el[top].node, "class"));
  std::vector<int> roots;
  for (int s = el[parent].first_child; s >= 0; s = el[s].next_sibling) {
    const Element& e = el[s];
    if (e.dropped) continue;
    bool join = s == top;
    if (!join) {
      double bonus = 0;
      if (!top_class.empty() && AttrOf(e.node, "class") == top_class) bonus = best * 0.2;
      join = e.scored && e.score + bonus >= threshold;
    }
    if (!join && e.tag == MyHTML_TAG_P) {
      const double ld = e.LinkDensity();
      join = (e.chars > 80 && ld < 0.25) ||
             (e.chars > 0 && e.chars <= 80 && ld == 0 && HasSentenceEnd(e.node));
    }
    if (join) roots.push_back(s);
  }
  return roots;
}

}  // namespace topicrawl::main_content_internal

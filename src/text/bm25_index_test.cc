#include "text/bm25_index.h"

#include <random>
#include <string>

#include "gtest/gtest.h"

namespace topicrawl {
namespace {

Bm25Doc Doc(std::vector<std::string> anchor, std::vector<std::string> url,
            std::vector<std::string> context) {
  Bm25Doc d;
  d[0] = std::move(anchor);
  d[1] = std::move(url);
  d[2] = std::move(context);
  return d;
}
Bm25Doc Anchor(std::vector<std::string> words) { return Doc(std::move(words), {}, {}); }

// Three documents, anchor field only; values worked out by hand:
//   N = 3, n(tcp) = 3, n(socket) = 1, avgdl = (2 + 1 + 3) / 3 = 2
//   idf(tcp)    = ln(1 + 0.5 / 3.5) = ln(8/7) = 0.1335314
//   idf(socket) = ln(1 + 2.5 / 1.5) = ln(8/3) = 0.9808293
//   tf part (tf = 1, k1 = 2, b = 0.75) = 3 / (1 + 2 (0.25 + 0.75 len / 2)):
//     len 2 -> 1, len 1 -> 4/3, len 3 -> 0.8
//   s(d0) = 0.5 * 0.1335314 * 1                 = 0.0667657
//   s(d1) = 0.5 * 0.1335314 * 4/3               = 0.0890209
//   s(d2) = 0.5 * (0.1335314 + 0.9808293) * 0.8 = 0.4457443
//   self  = 0.5 * (0.1335314 + 0.9808293) * 1   = 0.5571803 -> normalised 0.8
TEST(Bm25IndexTest, ThreeDocumentsByHand) {
  Bm25Index index;
  index.Add(Anchor({"tcp", "ip"}));
  index.Add(Anchor({"tcp"}));
  index.Add(Anchor({"udp", "socket", "tcp"}));
  const Bm25Doc q = Anchor({"tcp", "socket"});
  EXPECT_NEAR(index.idf(0, "tcp"), 0.1335314, 1e-7);
  EXPECT_NEAR(index.idf(0, "socket"), 0.9808293, 1e-7);
  EXPECT_NEAR(index.avgdl(0), 2.0, 1e-12);
  EXPECT_NEAR(index.Score(q, 0), 0.0667657, 1e-7);
  EXPECT_NEAR(index.Score(q, 1), 0.0890209, 1e-7);
  EXPECT_NEAR(index.Score(q, 2), 0.4457443, 1e-7);
  EXPECT_NEAR(index.SelfScore(q), 0.5571803, 1e-7);
  Bm25Hit hit = index.Top1(q);
  EXPECT_EQ(hit.doc, 2);
  EXPECT_NEAR(hit.score, 0.4457443, 1e-7);
  EXPECT_NEAR(hit.normalized, 0.8, 1e-9);
  // A query word no document has still counts in the normaliser (n = 0,
  // idf = ln(1 + 3.5 / 0.5) = ln 8; query length 3 -> tf part 0.8):
  //   self = 0.5 * (0.1335314 + 0.9808293 + 2.0794415) * 0.8 = 1.2775209
  const Bm25Doc q3 = Anchor({"tcp", "socket", "zzz"});
  EXPECT_NEAR(index.SelfScore(q3), 1.2775209, 1e-7);
  EXPECT_NEAR(index.Top1(q3).normalized, 0.4457443 / 1.2775209, 1e-7);
}

// The seed's eq. 6 (Robertson's idf, floored at 0) on the same three
// documents: tcp is in all 3, ln(0.5 / 3.5) < 0 -> 0; socket in 1,
// ln(2.5 / 1.5) = 0.5108256.
//   s(d0) = s(d1) = 0 (tcp only)
//   s(d2) = 0.5 * 0.5108256 * 0.8 = 0.2043302; self 0.2554128 -> 0.8
TEST(Bm25IndexTest, RobertsonIdfByHand) {
  Bm25Params p;
  p.robertson_idf = true;
  Bm25Index index(p);
  index.Add(Anchor({"tcp", "ip"}));
  index.Add(Anchor({"tcp"}));
  index.Add(Anchor({"udp", "socket", "tcp"}));
  const Bm25Doc q = Anchor({"tcp", "socket"});
  EXPECT_EQ(index.idf(0, "tcp"), 0.0);
  EXPECT_NEAR(index.idf(0, "socket"), 0.5108256, 1e-7);
  EXPECT_EQ(index.Score(q, 0), 0.0);
  EXPECT_EQ(index.Score(q, 1), 0.0);
  EXPECT_NEAR(index.Score(q, 2), 0.2043302, 1e-7);
  EXPECT_NEAR(index.SelfScore(q), 0.2554128, 1e-7);
  Bm25Hit hit = index.Top1(q);
  EXPECT_EQ(hit.doc, 2);
  EXPECT_NEAR(hit.normalized, 0.8, 1e-9);
}

// The URL field weighs 0.2: a URL-only match of a rare term in a 1-term URL
// (avgdl(url) = 1/3): 0.2 * ln(8/3) * 3 / (1 + 2 (0.25 + 0.75 * 3)) = 0.0980829.
TEST(Bm25IndexTest, FieldWeights) {
  Bm25Index index;
  index.Add(Anchor({"tcp"}));
  index.Add(Doc({"tcp"}, {"net"}, {}));
  index.Add(Anchor({"tcp"}));
  Bm25Doc q = Doc({}, {"net"}, {});
  EXPECT_NEAR(index.Score(q, 1), 0.0980829, 1e-7);
  EXPECT_EQ(index.Top1(q).doc, 1);
  EXPECT_EQ(index.Score(q, 0), 0.0);
}

TEST(Bm25IndexTest, NoSharedTermGivesNoHit) {
  Bm25Index index;
  index.Add(Anchor({"a"}));
  EXPECT_EQ(index.Top1(Anchor({"b"})).doc, -1);
  EXPECT_EQ(index.BruteForceTop1(Anchor({"b"})).doc, -1);
  Bm25Index empty;
  EXPECT_EQ(empty.Top1(Anchor({"a"})).doc, -1);
}

TEST(Bm25IndexTest, ExactRepeatNormalisesToOne) {
  Bm25Index index;
  index.Add(Anchor({"x", "y"}));
  index.Add(Anchor({"tcp", "socket"}));
  index.Add(Anchor({"z"}));
  Bm25Hit hit = index.Top1(Anchor({"tcp", "socket"}));
  EXPECT_EQ(hit.doc, 1);
  EXPECT_NEAR(hit.normalized, 1.0, 1e-12);
}

// Max-score equals the brute-force scan (same document, bit-identical score) on
// random Zipf-ish data with repeated terms, ties and all three fields.
TEST(Bm25IndexTest, Top1EqualsBruteForceOnRandomData) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 6; ++round) {
    const int vocab = 20 + 60 * round;
    const int docs = 50 + 300 * round;
    std::vector<double> w;
    for (int i = 0; i < vocab; ++i) w.push_back(1.0 / (i + 1));
    std::discrete_distribution<int> term(w.begin(), w.end());
    std::uniform_int_distribution<int> len(0, 6);
    auto make = [&] {
      Bm25Doc d;
      for (int f = 0; f < kBm25Fields; ++f) {
        int n = len(rng);
        for (int i = 0; i < n; ++i) d[f].push_back("t" + std::to_string(term(rng)));
      }
      return d;
    };
    Bm25Index index;
    for (int i = 0; i < docs; ++i) index.Add(make());
    int hits = 0;
    for (int qi = 0; qi < 200; ++qi) {
      Bm25Doc q = make();
      Bm25Hit a = index.Top1(q);
      Bm25Hit b = index.BruteForceTop1(q);
      ASSERT_EQ(a.doc, b.doc) << "round " << round << " query " << qi;
      ASSERT_EQ(a.score, b.score);
      ASSERT_EQ(a.normalized, b.normalized);
      if (a.doc >= 0) ++hits;
      if (a.doc >= 0) {
        EXPECT_DOUBLE_EQ(index.Score(q, a.doc), a.score);
      }
      EXPECT_EQ(a.shares_term, a.doc >= 0);
      // Finalize() below the tier size: the same plain max-score.
      // With a threshold: the same hit when its normalised score is above
      // it, else none.
      for (double m : {0.05, 0.3, 0.7}) {
        Bm25Hit c = index.Top1(q, m);
        EXPECT_EQ(c.shares_term, a.doc >= 0);
        if (a.doc >= 0 && a.normalized > m) {
          ASSERT_EQ(c.doc, a.doc) << m;
          ASSERT_EQ(c.score, a.score);
        } else {
          ASSERT_EQ(c.doc, -1) << m << " " << a.normalized;
        }
      }
      // Finalize() precomputes the normalisers (the same doubles) and the
      // impact tiers: the tiered top-1 is the brute-force one too, with and
      // without a threshold.
      // Each search of a finalized index (the default = tiers here, the
      // tiers, the plain max-score) on the same queries.
      if (qi == 0) {
        Bm25Index copy = index;
        copy.Finalize(/*tiered_from=*/0);
        for (Bm25Search mode : {Bm25Search::kAuto, Bm25Search::kTiers, Bm25Search::kMaxScore}) {
          copy.set_search(mode);
          for (int qj = 0; qj < 200; ++qj) {
            Bm25Doc r = make();
            Bm25Hit x = copy.Top1(r), y = index.BruteForceTop1(r);
            ASSERT_EQ(x.doc, y.doc) << round << " " << qj << " mode " << static_cast<int>(mode);
            ASSERT_EQ(x.score, y.score);
            ASSERT_EQ(x.normalized, y.normalized);
            for (double m : {0.1, 0.5}) {
              Bm25Hit z = copy.Top1(r, m);
              ASSERT_EQ(z.doc, y.doc >= 0 && y.normalized > m ? y.doc : -1) << m;
            }
          }
        }
      }
    }
    EXPECT_GT(hits, 100);
  }
}

// Ties: exact duplicate documents (the same score, bit for bit) at spread
// ids, and queries that repeat a document. Top1 must return the smallest
// id of the tied best, like the brute-force scan, on the plain and the
// tiered index. The test counts the queries whose best score is shared, so
// that it cannot pass without exercising ties.
TEST(Bm25IndexTest, Top1BreaksTiesLikeBruteForce) {
  std::mt19937_64 rng(7);
  std::vector<double> w;
  for (int i = 0; i < 80; ++i) w.push_back(1.0 / (i + 1));
  std::discrete_distribution<int> term(w.begin(), w.end());
  std::uniform_int_distribution<int> len(1, 5);
  auto make = [&] {
    Bm25Doc d;
    for (int f = 0; f < kBm25Fields; ++f) {
      int n = len(rng);
      for (int i = 0; i < n; ++i) d[f].push_back("t" + std::to_string(term(rng)));
    }
    return d;
  };
  std::vector<Bm25Doc> docs;
  Bm25Index index;
  for (int i = 0; i < 600; ++i) {
    // Every third document repeats an earlier one.
    docs.push_back(i % 3 == 2 ? docs[rng() % docs.size()] : make());
    index.Add(docs.back());
  }
  Bm25Index tiered = index;
  tiered.Finalize(/*tiered_from=*/0);
  Bm25Index finalized = index;  // precomputed impacts, no tiers
  finalized.Finalize();
  finalized.set_search(Bm25Search::kMaxScore);
  tiered.set_search(Bm25Search::kTiers);
  int tied = 0;
  for (int qi = 0; qi < 300; ++qi) {
    const Bm25Doc q = qi % 2 ? docs[rng() % docs.size()] : make();
    const Bm25Hit b = index.BruteForceTop1(q);
    int best = 0;
    for (size_t d = 0; d < index.size(); ++d) best += index.Score(q, d) == b.score;
    if (b.doc >= 0 && best > 1) ++tied;
    for (const Bm25Index* x : {&index, &finalized, &tiered}) {
      const Bm25Hit a = x->Top1(q);
      ASSERT_EQ(a.doc, b.doc) << "query " << qi << " tied " << best;
      ASSERT_EQ(a.score, b.score);
      const Bm25Hit c = x->Top1(q, 0.2);
      ASSERT_EQ(c.doc, b.normalized > 0.2 ? b.doc : -1) << qi;
    }
  }
  EXPECT_GT(tied, 100);
}

}  // namespace
}  // namespace topicrawl

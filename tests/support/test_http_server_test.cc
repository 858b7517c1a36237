#include "support/test_http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace topicrawl::testing {
namespace {

// A blocking raw client: one connection, requests written as given.
class RawClient {
 public:
  explicit RawClient(uint16_t port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    timeval tv{5, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(port);
    connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  }
  ~RawClient() { close(fd_); }
  void Send(const std::string& data) { (void)!write(fd_, data.data(), data.size()); }
  // Reads until `needle` has been seen, EOF or error; returns all bytes read.
  std::string ReadUntil(const std::string& needle, int* last_errno = nullptr) {
    std::string got;
    char buf[4096];
    while (got.find(needle) == std::string::npos) {
      ssize_t n = read(fd_, buf, sizeof(buf));
      if (n <= 0) {
        if (last_errno) *last_errno = n < 0 ? errno : 0;
        break;
      }
      got.append(buf, static_cast<size_t>(n));
    }
    return got;
  }

 private:
  int fd_;
};

std::string Get(const std::string& path, const std::string& extra = "") {
  return "GET " + path + " HTTP/1.1\r\nHost: x\r\n" + extra + "\r\n";
}

class TestHttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(server_.Start().ok()); }
  TestHttpServer server_;
};

TEST_F(TestHttpServerTest, ServesRouteAndCountsRequests) {
  server_.Set("/a", HtmlResponse("<p>hello</p>"));
  RawClient client(server_.port());
  client.Send(Get("/a"));
  std::string got = client.ReadUntil("hello</p>");
  EXPECT_NE(got.find("HTTP/1.1 200 OK\r\n"), std::string::npos);
  EXPECT_NE(got.find("Content-Length: 12\r\n"), std::string::npos);
  EXPECT_EQ(server_.RequestCount("/a"), 1);
  EXPECT_EQ(server_.RequestCount("/b"), 0);
}

TEST_F(TestHttpServerTest, KeepAliveServesSeveralRequestsOnOneConnection) {
  server_.Set("/a", HtmlResponse("A1"));
  server_.Set("/b", HtmlResponse("B2"));
  RawClient client(server_.port());
  client.Send(Get("/a") + Get("/b"));  // pipelined
  std::string got = client.ReadUntil("B2");
  EXPECT_NE(got.find("A1"), std::string::npos);
  EXPECT_EQ(server_.Connections(), 1);
  auto log = server_.Requests();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].connection, log[1].connection);
  EXPECT_EQ(log[1].target, "/b");
}

TEST_F(TestHttpServerTest, UnknownPathIs404) {
  RawClient client(server_.port());
  client.Send(Get("/nope"));
  EXPECT_NE(client.ReadUntil("</h1>").find("404 Not Found"), std::string::npos);
}

TEST_F(TestHttpServerTest, DelaysResponse) {
  TestResponse r = HtmlResponse("late");
  r.delay = Millis(150);
  server_.Set("/slow", r);
  RawClient client(server_.port());
  auto start = std::chrono::steady_clock::now();
  client.Send(Get("/slow"));
  EXPECT_NE(client.ReadUntil("late").find("late"), std::string::npos);
  EXPECT_GE(std::chrono::steady_clock::now() - start, Millis(140));
}

TEST_F(TestHttpServerTest, ResetsConnection) {
  TestResponse r;
  r.reset = true;
  server_.Set("/reset", r);
  RawClient client(server_.port());
  client.Send(Get("/reset"));
  int err = -1;
  EXPECT_EQ(client.ReadUntil("HTTP", &err), "");
  EXPECT_EQ(err, ECONNRESET);
}

TEST_F(TestHttpServerTest, AnswersConditionalGetWith304) {
  TestResponse r = HtmlResponse("body");
  r.headers.emplace_back("ETag", "\"v1\"");
  server_.Set("/c", r);
  RawClient client(server_.port());
  client.Send(Get("/c", "If-None-Match: \"v1\"\r\n"));
  std::string got = client.ReadUntil("\r\n\r\n");
  EXPECT_NE(got.find("304 Not Modified"), std::string::npos);
  EXPECT_EQ(got.find("body"), std::string::npos);
}

TEST_F(TestHttpServerTest, SendsEndlessChunkedBody) {
  TestResponse r;
  r.endless = true;
  server_.Set("/endless", r);
  RawClient client(server_.port());
  client.Send(Get("/endless"));
  std::string got;
  while (got.size() < 200000) {
    std::string more = client.ReadUntil("x");
    if (more.empty()) break;
    got += more;
  }
  EXPECT_GE(got.size(), 200000u);
  EXPECT_NE(got.find("Transfer-Encoding: chunked"), std::string::npos);
}

TEST_F(TestHttpServerTest, ServesDirectoryWithIndexAndTypes) {
  char tmpl[] = "/tmp/topicrawl-dir-XXXXXX";
  std::string dir = mkdtemp(tmpl);
  std::ofstream(dir + "/index.html") << "<p>index</p>";
  std::ofstream(dir + "/robots.txt") << "User-agent: *";
  server_.ServeDirectory(dir);
  server_.Set("/robots.txt", TextResponse("route wins"));
  RawClient client(server_.port());
  client.Send(Get("/"));
  std::string got = client.ReadUntil("</p>");
  EXPECT_NE(got.find("Content-Type: text/html"), std::string::npos);
  EXPECT_NE(got.find("<p>index</p>"), std::string::npos);
  client.Send(Get("/robots.txt"));
  EXPECT_NE(client.ReadUntil("wins").find("route wins"), std::string::npos);
  client.Send(Get("/../etc/passwd"));
  EXPECT_NE(client.ReadUntil("</h1>").find("404"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(GzipTest, ProducesGzipMagic) {
  std::string z = Gzip("hello hello hello");
  ASSERT_GE(z.size(), 10u);
  EXPECT_EQ(static_cast<unsigned char>(z[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(z[1]), 0x8b);
}

}  // namespace
}  // namespace topicrawl::testing

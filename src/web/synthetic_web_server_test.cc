#include "web/synthetic_web_server.h"

#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace topicrawl::web {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

class SyntheticWebServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SyntheticWebOptions o;
    o.hosts = 3;
    o.pages = 300;
    o.session_host_fraction = 0;
    web_ = std::make_unique<SyntheticWeb>(o);
    server_ = std::make_unique<SyntheticWebServer>(web_.get());
    ASSERT_TRUE(server_->Listen(0).ok());
    thread_ = std::thread([this] { EXPECT_TRUE(server_->Run().ok()); });
  }
  void TearDown() override {
    server_->Stop();
    thread_.join();
  }
  int Connect() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(server_->port()));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    timeval tv{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
  }
  // Sends `request` and reads until the server closes the connection.
  std::string Exchange(const std::string& request) {
    int fd = Connect();
    EXPECT_EQ(::send(fd, request.data(), request.size(), 0), static_cast<ssize_t>(request.size()));
    std::string out;
    char buf[65536];
    ssize_t n;
    while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0) out.append(buf, static_cast<size_t>(n));
    ::close(fd);
    return out;
  }
  size_t Count(const std::string& s, const std::string& needle) {
    size_t n = 0;
    for (size_t p = s.find(needle); p != std::string::npos; p = s.find(needle, p + 1)) ++n;
    return n;
  }
  std::unique_ptr<SyntheticWeb> web_;
  std::unique_ptr<SyntheticWebServer> server_;
  std::thread thread_;
};

TEST_F(SyntheticWebServerTest, ServesPipelinedKeepAliveRequestsByHostHeader) {
  const std::string host = web_->HostName(1);
  std::string out = Exchange("GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n" +
                             "GET /robots.txt HTTP/1.1\r\nHost: " + host + ":8080\r\n\r\n" +
                             "GET / HTTP/1.1\r\nHost: nothere.test\r\nConnection: close\r\n\r\n");
  EXPECT_THAT(out, StartsWith("HTTP/1.1 200 OK\r\n"));
  EXPECT_EQ(Count(out, "HTTP/1.1 200 OK"), 2u);
  EXPECT_EQ(Count(out, "HTTP/1.1 404 Not Found"), 1u);
  EXPECT_THAT(out, HasSubstr("User-agent: *"));
  EXPECT_EQ(server_->requests(), 3u);
  // The body is exactly what the generator says.
  std::string body = web_->Respond(host, "/").body;
  EXPECT_THAT(out, HasSubstr("Content-Length: " + std::to_string(body.size()) + "\r\n"));
  EXPECT_THAT(out, HasSubstr(body));
}

TEST_F(SyntheticWebServerTest, HeadHasNoBodyAndHttp10Closes) {
  std::string out = Exchange("HEAD / HTTP/1.0\r\nHost: " + web_->HostName(0) + "\r\n\r\n");
  EXPECT_THAT(out, StartsWith("HTTP/1.1 200 OK"));
  EXPECT_THAT(out, HasSubstr("Connection: close"));
  EXPECT_EQ(out.substr(out.find("\r\n\r\n") + 4), "");
}

TEST_F(SyntheticWebServerTest, RejectsBadRequestsWithoutCrashing) {
  EXPECT_THAT(Exchange("garbage\r\n\r\n"), StartsWith("HTTP/1.1 400"));
  EXPECT_THAT(Exchange("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc"),
              StartsWith("HTTP/1.1 405"));
  EXPECT_THAT(Exchange("GET / HTTP/1.1\r\nX: " + std::string(20000, 'a')), StartsWith("HTTP/1.1 431"));
  // Absolute-form target.
  EXPECT_THAT(Exchange("GET http://" + web_->HostName(2) + "/ HTTP/1.1\r\nConnection: close\r\n\r\n"),
              StartsWith("HTTP/1.1 200"));
}

TEST_F(SyntheticWebServerTest, LatencyHoldsResponsesInOrder) {
  server_->Stop();
  thread_.join();
  server_ = std::make_unique<SyntheticWebServer>(web_.get());
  server_->SetLatencyMs(150);
  ASSERT_TRUE(server_->Listen(0).ok());
  thread_ = std::thread([this] { EXPECT_TRUE(server_->Run().ok()); });
  const auto start = std::chrono::steady_clock::now();
  std::string out = Exchange("GET /robots.txt HTTP/1.1\r\nHost: " + web_->HostName(0) +
                             "\r\n\r\nGET /nothere HTTP/1.1\r\nHost: " + web_->HostName(0) +
                             "\r\nConnection: close\r\n\r\n");
  const auto elapsed = std::chrono::steady_clock::now() - start;
  // Held at least the latency (a lower bound: never flaky on a slow machine).
  EXPECT_GE(elapsed, std::chrono::milliseconds(150));
  EXPECT_THAT(out, StartsWith("HTTP/1.1 200 OK"));
  EXPECT_EQ(Count(out, "HTTP/1.1 404"), 1u);
  EXPECT_LT(out.find("200 OK"), out.find("404"));
}

}  // namespace
}  // namespace topicrawl::web

#include "render/cdp_connection.h"

#include <atomic>
#include <chrono>
#include <deque>
#include <mutex>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

namespace topicrawl {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = boost::beast::websocket;
using tcp = asio::ip::tcp;

struct CdpConnection::State {
  asio::io_context ioc;
  websocket::stream<beast::tcp_stream> ws{ioc};
  beast::flat_buffer read_buffer;
  std::deque<std::string> outbox;  // I/O thread only
  bool writing = false;            // I/O thread only
  std::function<void()> on_message;
  std::thread thread;

  std::mutex mu;
  std::vector<nlohmann::json> inbox;  // guarded by mu
  std::atomic<bool> closed{false};
  std::atomic<int64_t> next_id{1};
  std::atomic<int64_t> bad_frames{0};

  void ReadNext();
  void WriteNext();
  void Fail() {
    closed = true;
    if (on_message) on_message();
  }
};

void CdpConnection::State::ReadNext() {
  ws.async_read(read_buffer, [this](beast::error_code ec, size_t) {
    if (ec) {
      Fail();
      return;
    }
    auto text = beast::buffers_to_string(read_buffer.data());
    read_buffer.consume(read_buffer.size());
    nlohmann::json msg = nlohmann::json::parse(text, nullptr, false);
    if (msg.is_object()) {
      std::lock_guard<std::mutex> lock(mu);
      inbox.push_back(std::move(msg));
    } else {
      ++bad_frames;
    }
    if (on_message) on_message();
    ReadNext();
  });
}

void CdpConnection::State::WriteNext() {
  if (writing || outbox.empty() || closed) return;
  writing = true;
  ws.async_write(asio::buffer(outbox.front()), [this](beast::error_code ec, size_t) {
    writing = false;
    outbox.pop_front();
    if (ec) {
      Fail();
      return;
    }
    WriteNext();
  });
}

namespace {

// "ws://HOST:PORT/PATH" -> host, port, path.
bool SplitWsUrl(const std::string& url, std::string* host, std::string* port,
                std::string* path) {
  constexpr std::string_view kScheme = "ws://";
  if (url.compare(0, kScheme.size(), kScheme) != 0) return false;
  size_t slash = url.find('/', kScheme.size());
  std::string authority = url.substr(kScheme.size(), slash - kScheme.size());
  size_t colon = authority.rfind(':');
  if (colon == std::string::npos) return false;
  *host = authority.substr(0, colon);
  *port = authority.substr(colon + 1);
  *path = slash == std::string::npos ? "/" : url.substr(slash);
  return !host->empty() && !port->empty();
}

}  // namespace

StatusOr<std::unique_ptr<CdpConnection>> CdpConnection::Connect(
    const std::string& ws_url, int timeout_ms, std::function<void()> on_message) {
  std::string host, port, path;
  if (!SplitWsUrl(ws_url, &host, &port, &path)) {
    return Status::Error("not a ws:// DevTools URL: " + ws_url);
  }
  auto state = std::make_shared<State>();
  state->on_message = std::move(on_message);
  beast::error_code result = asio::error::timed_out;
  bool done = false;
  tcp::endpoint endpoint;
  try {
    endpoint = tcp::endpoint(asio::ip::make_address(host), static_cast<uint16_t>(std::stoi(port)));
  } catch (const std::exception& e) {
    return Status::Error("bad DevTools address " + host + ":" + port + ": " + e.what());
  }
  auto& stream = beast::get_lowest_layer(state->ws);
  stream.expires_after(std::chrono::milliseconds(timeout_ms));
  stream.async_connect(endpoint, [&](beast::error_code ec) {
    if (ec) {
      result = ec;
      done = true;
      return;
    }
    beast::get_lowest_layer(state->ws).expires_never();
    state->ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
    state->ws.async_handshake(host + ":" + port, path, [&](beast::error_code hec) {
      result = hec;
      done = true;
    });
  });
  state->ioc.run_for(std::chrono::milliseconds(timeout_ms));
  if (!done || result) {
    return Status::Error("DevTools WebSocket handshake with " + ws_url + " failed: " +
                         (done ? result.message() : std::string("timed out")));
  }
  // A rendered DOM arrives as one message; bounded so a hostile page cannot
  // make the client buffer without limit.
  state->ws.read_message_max(size_t{96} << 20);
  state->ioc.restart();
  State* s = state.get();
  s->ReadNext();
  s->thread = std::thread([s] {
    auto guard = asio::make_work_guard(s->ioc);
    s->ioc.run();
  });
  return std::unique_ptr<CdpConnection>(new CdpConnection(std::move(state)));
}

CdpConnection::~CdpConnection() {
  State* s = state_.get();
  asio::post(s->ioc, [s] {
    beast::error_code ec;
    beast::get_lowest_layer(s->ws).socket().close(ec);
    s->ioc.stop();
  });
  if (s->thread.joinable()) s->thread.join();
}

int64_t CdpConnection::Send(const std::string& method, nlohmann::json params,
                            const std::string& session_id) {
  const int64_t id = state_->next_id++;
  nlohmann::json msg = {{"id", id}, {"method", method}, {"params", std::move(params)}};
  if (!session_id.empty()) msg["sessionId"] = session_id;
  State* s = state_.get();
  asio::post(s->ioc, [s, text = msg.dump(-1, ' ', false,
                                         nlohmann::json::error_handler_t::replace)]() mutable {
    s->outbox.push_back(std::move(text));
    s->WriteNext();
  });
  return id;
}

std::vector<nlohmann::json> CdpConnection::TakeMessages() {
  std::vector<nlohmann::json> out;
  std::lock_guard<std::mutex> lock(state_->mu);
  out.swap(state_->inbox);
  return out;
}

bool CdpConnection::closed() const { return state_->closed.load(); }
int64_t CdpConnection::bad_frames() const { return state_->bad_frames.load(); }

}  // namespace topicrawl

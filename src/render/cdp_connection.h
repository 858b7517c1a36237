// CdpConnection: one WebSocket to a Chromium DevTools endpoint, carrying
// Chrome DevTools Protocol messages (JSON text frames).
//
// WebSocket client: Boost.Beast (Debian libboost-dev, header-only). Chosen
// over libwebsockets because the client is ~150 lines on top of Asio with no
// event-loop integration to write (libwebsockets wants to own the loop and
// its callbacks, which fits a server better than a client that sends one
// command at a time), and Boost is a build-only dependency: nothing new to
// ship at run time.
//
// One I/O thread per connection runs the Asio loop: it reads every incoming
// frame into a queue and writes the queued outgoing frames in order. The
// owner thread calls Send() and TakeMessages(); `on_message` runs on the I/O
// thread after each frame (the owner uses it to wake its own wait).
#ifndef TOPICRAWL_RENDER_CDP_CONNECTION_H_
#define TOPICRAWL_RENDER_CDP_CONNECTION_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace topicrawl {

class CdpConnection {
 public:
  // Connects to `ws_url` ("ws://127.0.0.1:PORT/devtools/browser/ID") and
  // completes the WebSocket handshake within `timeout_ms`.
  static StatusOr<std::unique_ptr<CdpConnection>> Connect(const std::string& ws_url,
                                                          int timeout_ms,
                                                          std::function<void()> on_message);
  ~CdpConnection();  // closes the socket, joins the I/O thread

  // Queues one command; returns its id (answers carry it). An empty
  // `session_id` addresses the browser, otherwise an attached target
  // (Target.attachToTarget with flatten: true).
  int64_t Send(const std::string& method, nlohmann::json params,
               const std::string& session_id = "");

  // Every message received since the last call, in order. Frames that are
  // not JSON objects are dropped (counted in bad_frames()).
  std::vector<nlohmann::json> TakeMessages();

  // The socket closed or failed (the browser exited or crashed).
  bool closed() const;
  int64_t bad_frames() const;

  struct State;  // shared with the I/O thread's handlers

 private:
  explicit CdpConnection(std::shared_ptr<State> state) : state_(std::move(state)) {}
  std::shared_ptr<State> state_;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_RENDER_CDP_CONNECTION_H_

// RedisClient: one blocking connection to a Redis server over hiredis
// (Debian libhiredis-dev 0.14: no TLS, no Redis Cluster redirections).
//
// Replies are copied into a RedisReply tree so no hiredis type leaks out.
// Errors (connection lost, timeout, an error reply) are Status values; after
// a connection error the client reconnects on the next command.
//
// Thread-safety: none. One client per thread (the crawl thread and the lease
// thread of a worker each own one).
#ifndef TOPICRAWL_CLUSTER_REDIS_CLIENT_H_
#define TOPICRAWL_CLUSTER_REDIS_CLIENT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"

struct redisContext;  // hiredis

namespace topicrawl {

struct RedisReply {
  enum class Type { kNil, kInteger, kString, kStatus, kArray };
  Type type = Type::kNil;
  int64_t integer = 0;
  std::string str;  // kString, kStatus
  std::vector<RedisReply> elements;

  bool nil() const { return type == Type::kNil; }
  // Integer value of an integer reply or a decimal string reply; `fallback`
  // otherwise (nil, arrays, non-numeric strings).
  int64_t AsInt(int64_t fallback = 0) const;
};

// redis://HOST:PORT[/DB]; PORT defaults to 6379, DB to 0.
struct RedisAddress {
  std::string host;
  int port = 6379;
  int db = 0;
};
StatusOr<RedisAddress> ParseRedisUrl(const std::string& url);

class RedisClient {
 public:
  // Connects (and SELECTs the database). `timeout_ms` bounds connect and
  // every command.
  static StatusOr<std::unique_ptr<RedisClient>> Connect(const RedisAddress& address,
                                                        int timeout_ms = 5000);
  ~RedisClient();
  RedisClient(const RedisClient&) = delete;
  RedisClient& operator=(const RedisClient&) = delete;

  // One command; an error reply is an error Status carrying its text.
  StatusOr<RedisReply> Command(const std::vector<std::string>& argv);
  // Several commands in one round trip (pipelined); the replies in order. An
  // error reply of one command is kept as a kStatus reply starting "ERR:".
  StatusOr<std::vector<RedisReply>> Pipeline(const std::vector<std::vector<std::string>>& cmds);

  // Bytes sent and replies received so far (bench: Redis bytes per page).
  uint64_t bytes_sent() const { return bytes_sent_; }
  uint64_t commands() const { return commands_; }

 private:
  RedisClient(RedisAddress address, int timeout_ms) : address_(address), timeout_ms_(timeout_ms) {}
  Status Reconnect();

  RedisAddress address_;
  int timeout_ms_;
  redisContext* ctx_ = nullptr;
  uint64_t bytes_sent_ = 0;
  uint64_t commands_ = 0;
};

}  // namespace topicrawl

#endif  // TOPICRAWL_CLUSTER_REDIS_CLIENT_H_

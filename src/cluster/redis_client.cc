#include "cluster/redis_client.h"

#include <hiredis.h>

#include <cerrno>
#include <cstdlib>

namespace topicrawl {
namespace {

RedisReply Convert(const redisReply* r) {
  RedisReply out;
  if (r == nullptr) return out;
  switch (r->type) {
    case REDIS_REPLY_INTEGER:
      out.type = RedisReply::Type::kInteger;
      out.integer = r->integer;
      break;
    case REDIS_REPLY_STRING:
      out.type = RedisReply::Type::kString;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_STATUS:
      out.type = RedisReply::Type::kStatus;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ERROR:
      out.type = RedisReply::Type::kStatus;
      out.str = "ERR:" + std::string(r->str, r->len);
      break;
    case REDIS_REPLY_ARRAY:
      out.type = RedisReply::Type::kArray;
      out.elements.reserve(r->elements);
      for (size_t i = 0; i < r->elements; ++i) out.elements.push_back(Convert(r->element[i]));
      break;
    default:
      break;
  }
  return out;
}

struct ArgvView {
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  size_t bytes = 0;
  explicit ArgvView(const std::vector<std::string>& args) {
    argv.reserve(args.size());
    lens.reserve(args.size());
    for (const auto& a : args) {
      argv.push_back(a.data());
      lens.push_back(a.size());
      bytes += a.size() + 16;  // RESP framing, roughly
    }
  }
};

}  // namespace

int64_t RedisReply::AsInt(int64_t fallback) const {
  if (type == Type::kInteger) return integer;
  if (type == Type::kString && !str.empty()) {
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(str.c_str(), &end, 10);
    if (errno == 0 && end && *end == '\0') return v;
  }
  return fallback;
}

StatusOr<RedisAddress> ParseRedisUrl(const std::string& url) {
  const std::string prefix = "redis://";
  if (url.compare(0, prefix.size(), prefix) != 0) {
    return Status::Error("bad Redis URL '" + url + "': expected redis://HOST:PORT[/DB]");
  }
  std::string rest = url.substr(prefix.size());
  RedisAddress a;
  if (size_t slash = rest.find('/'); slash != std::string::npos) {
    std::string db = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
    if (!db.empty()) {
      char* end = nullptr;
      long v = std::strtol(db.c_str(), &end, 10);
      if (*end != '\0' || v < 0 || v > 1000) return Status::Error("bad Redis DB in '" + url + "'");
      a.db = static_cast<int>(v);
    }
  }
  if (size_t colon = rest.rfind(':'); colon != std::string::npos) {
    std::string port = rest.substr(colon + 1);
    char* end = nullptr;
    long v = std::strtol(port.c_str(), &end, 10);
    if (port.empty() || *end != '\0' || v < 1 || v > 65535) {
      return Status::Error("bad Redis port in '" + url + "'");
    }
    a.port = static_cast<int>(v);
    rest = rest.substr(0, colon);
  }
  if (rest.empty()) return Status::Error("bad Redis URL '" + url + "': no host");
  a.host = rest;
  return a;
}

StatusOr<std::unique_ptr<RedisClient>> RedisClient::Connect(const RedisAddress& address,
                                                            int timeout_ms) {
  std::unique_ptr<RedisClient> c(new RedisClient(address, timeout_ms));
  Status s = c->Reconnect();
  if (!s.ok()) return s;
  return c;
}

RedisClient::~RedisClient() {
  if (ctx_) redisFree(ctx_);
}

Status RedisClient::Reconnect() {
  if (ctx_) {
    redisFree(ctx_);
    ctx_ = nullptr;
  }
  timeval tv{timeout_ms_ / 1000, (timeout_ms_ % 1000) * 1000};
  redisContext* ctx = redisConnectWithTimeout(address_.host.c_str(), address_.port, tv);
  if (ctx == nullptr) return Status::Error("cannot allocate a Redis connection");
  if (ctx->err) {
    std::string why = ctx->errstr;
    redisFree(ctx);
    return Status::Error("cannot connect to Redis at " + address_.host + ":" +
                         std::to_string(address_.port) + ": " + why);
  }
  redisSetTimeout(ctx, tv);
  ctx_ = ctx;
  if (address_.db != 0) {
    auto r = Command({"SELECT", std::to_string(address_.db)});
    if (!r.ok()) return r.status();
  }
  return Status::Ok();
}

StatusOr<RedisReply> RedisClient::Command(const std::vector<std::string>& args) {
  auto replies = Pipeline({args});
  if (!replies.ok()) return replies.status();
  RedisReply r = std::move((*replies)[0]);
  if (r.type == RedisReply::Type::kStatus && r.str.rfind("ERR:", 0) == 0) {
    return Status::Error("Redis " + args[0] + ": " + r.str.substr(4));
  }
  return r;
}

StatusOr<std::vector<RedisReply>> RedisClient::Pipeline(
    const std::vector<std::vector<std::string>>& cmds) {
  if (ctx_ == nullptr || ctx_->err) {
    Status s = Reconnect();
    if (!s.ok()) return s;
  }
  for (const auto& cmd : cmds) {
    ArgvView v(cmd);
    if (redisAppendCommandArgv(ctx_, static_cast<int>(cmd.size()), v.argv.data(),
                               v.lens.data()) != REDIS_OK) {
      return Status::Error("Redis: cannot queue command: " + std::string(ctx_->errstr));
    }
    bytes_sent_ += v.bytes;
    ++commands_;
  }
  std::vector<RedisReply> out;
  out.reserve(cmds.size());
  for (size_t i = 0; i < cmds.size(); ++i) {
    void* raw = nullptr;
    if (redisGetReply(ctx_, &raw) != REDIS_OK || raw == nullptr) {
      std::string why = ctx_->errstr[0] ? ctx_->errstr : "connection lost";
      redisFree(ctx_);
      ctx_ = nullptr;
      return Status::Error("Redis: " + why);
    }
    out.push_back(Convert(static_cast<redisReply*>(raw)));
    freeReplyObject(raw);
  }
  return out;
}

}  // namespace topicrawl

// TensorFlow's tensorflow/core/public/session.h: tensorflow::Session (Sluice's Session has
// TensorFlow's methods) and TensorFlow's two NewSession forms over Sluice's.
#ifndef SLUICE_COMPAT_TENSORFLOW_CORE_PUBLIC_SESSION_H_
#define SLUICE_COMPAT_TENSORFLOW_CORE_PUBLIC_SESSION_H_

#include <memory>

#include "runtime/session/session.h"
#include "tensorflow/core/framework/tensor.h"
#include "tensorflow/core/lib/core/status.h"
#include "tensorflow/core/platform/namespace.h"
#include "tensorflow/core/public/session_options.h"

namespace tensorflow {

// A new session, or null when it cannot be made (TensorFlow logs why; use the Status form
// to see it). The caller owns it.
inline Session* NewSession(const SessionOptions& options) {
  std::unique_ptr<Session> session;
  if (!::sluice::NewSession(options, &session).ok()) return nullptr;
  return session.release();
}

// *out_session is the new session (the caller owns it), or null with the error returned.
inline Status NewSession(const SessionOptions& options, Session** out_session) {
  std::unique_ptr<Session> session;
  Status status = ::sluice::NewSession(options, &session);
  *out_session = session.release();
  return status;
}

// Sluice's own form, reachable under TensorFlow's namespace too.
inline Status NewSession(const SessionOptions& options, std::unique_ptr<Session>* out_session) {
  return ::sluice::NewSession(options, out_session);
}

}  // namespace tensorflow

#endif  // SLUICE_COMPAT_TENSORFLOW_CORE_PUBLIC_SESSION_H_

// Forwarding header: Session and NewSession are declared in runtime/session/session.h.
// Custom-op and client code written against this path keeps compiling; Sluice's own code
// includes runtime/session/session.h (//tests/source:layering_test rejects this path inside the
// tree).
#ifndef SLUICE_RUNTIME_SESSION_H_
#define SLUICE_RUNTIME_SESSION_H_

#include "runtime/session/session.h"

#endif  // SLUICE_RUNTIME_SESSION_H_

// Forwarding header: Session and NewSession moved to runtime/session/session.h.
// This path is kept because users' code includes it (the README's examples named it before the
// layers became folders); Sluice's own code includes runtime/session/session.h.
#ifndef SLUICE_RUNTIME_SESSION_H_
#define SLUICE_RUNTIME_SESSION_H_

#include "runtime/session/session.h"

#endif  // SLUICE_RUNTIME_SESSION_H_

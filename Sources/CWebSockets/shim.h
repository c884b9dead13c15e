// The system libwebsockets (apt libwebsockets-dev, pkg-config libwebsockets), used by LazyModelAPI's
// WebSocket transport on Linux. The inline functions expose values Swift cannot import from macros.
#include <libwebsockets.h>

/// Bytes a buffer passed to lws_write must leave free before the payload (LWS_PRE).
static inline size_t modelgen_lws_pre(void) { return LWS_PRE; }
/// LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT: let the context initialise OpenSSL (wss://).
static inline unsigned long long modelgen_lws_option_ssl_global_init(void) {
  return (unsigned long long)LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
}
/// CONTEXT_PORT_NO_LISTEN: a client-only context.
static inline int modelgen_lws_port_no_listen(void) { return CONTEXT_PORT_NO_LISTEN; }

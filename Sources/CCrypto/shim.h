// OpenSSL libcrypto (apt libssl-dev): SHA-256 and HMAC-SHA256 for AWS Signature Version 4 on
// Linux. Only the one-shot EVP_Digest and HMAC calls are used (neither is deprecated in 3.0).
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/crypto.h>

package ssh

import "time"

// SetConnectTimeout shortens the connection timeout for a test; call the result to restore it.
func SetConnectTimeout(d time.Duration) (restore func()) {
	old := connectTimeout
	connectTimeout = d
	return func() { connectTimeout = old }
}

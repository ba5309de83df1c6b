package inspect

// withReason is "msg — reason", or msg when there is no reason.
func withReason(msg, reason string) string {
	if reason != "" {
		msg += " — " + reason
	}
	return msg
}

package inspect

import "github.com/zevo/zevo/protocol"

// Short names for the tests.
var (
	Auto      *protocol.Protocol // each line's own
	Zero      = protocol.ZeroV2
	Zero1     = protocol.ZeroV1
	ZeroInput = protocol.ZeroInput
	EvoSci    = protocol.EvoSci
)

type Protocol = *protocol.Protocol

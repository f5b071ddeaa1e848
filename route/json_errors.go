package route

import "errors"

// Sentinel errors of the route codecs. Callers test them with errors.Is; the
// returned errors wrap them with the position or field that failed.
var (
	// ErrRouteJSONSyntax: a body is not (fastjson-tolerant) JSON.
	ErrRouteJSONSyntax = errors.New("route: malformed JSON body")
	// ErrRouteJSONType: a JSON value has the wrong type or range for its field.
	ErrRouteJSONType = errors.New("route: JSON value of the wrong type")
	// ErrRouteJSONTooDeep: nesting beyond maxJSONDepth; refused so hostile
	// input cannot exhaust the stack.
	ErrRouteJSONTooDeep = errors.New("route: JSON nested too deeply")
	// ErrRouteCompressedBody: a compressed RegisterBrokerBody is not zlib, ends
	// early or has an item that does not parse.
	ErrRouteCompressedBody = errors.New("route: bad compressed register body")
	// ErrRouteBodyTooLarge: a compressed body inflates beyond
	// MaxInflatedRegisterBodySize.
	ErrRouteBodyTooLarge = errors.New("route: inflated register body too large")
)

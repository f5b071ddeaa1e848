package aclsign

import "github.com/gonamesrv/gonamesrv/remoting"

// Signer returns a remoting.ClientConfig.Sign that signs every request
// with cred; nil when cred is empty, so an unsigned client stays unsigned.
func Signer(cred Credentials) func(*remoting.Command) {
	if cred.Empty() {
		return nil
	}
	return func(req *remoting.Command) {
		if req.ExtFields == nil {
			req.ExtFields = make(map[string]string, 3)
		}
		Sign(req.ExtFields, req.Body, cred)
	}
}

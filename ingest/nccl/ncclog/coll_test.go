package ncclog

import (
	"slices"
	"testing"
)

// collLine is a COLL line's message as NCCL 2.x writes it.
const collLine = "AllReduce: opCount 1a2 sendbuff 0x7f00aa000000 recvbuff 0x7f00aa000000 count 4194304 datatype 7 op 0 root 0 comm 0x55d0c0a3b2e0 [nranks=8] stream 0x55d0c09f8c70"

// FuzzCollMatch holds collMatch to collRe: the same submatches, or no
// match for both.
func FuzzCollMatch(f *testing.F) {
	for _, s := range []string{
		collLine, collLine + " \t\r\n", collLine + " x", collLine[:len(collLine)-1] + "g",
		"Send: opCount 0 sendbuff (nil) recvbuff é€ count 1 datatype 0 op 0 root -1 comm 0xA [nranks=2] stream (nil)",
		"Broadcast: opCount F sendbuff a recvbuff b count 0 datatype 1 op 2 root 3 comm 0x0 [nranks=0] stream 0x1\v",
		"_: opCount 0 sendbuff a  recvbuff b count 1 datatype 1 op 1 root 1 comm 0x1 [nranks=1] stream 0x1",
		"a: opCount 0 sendbuff a recvbuff b count 1 datatype 1 op 1 root - comm 0x1 [nranks=1] stream 0x1",
		"a: opCount 0 sendbuff a recvbuff b count 1 datatype 1 op 1 root --1 comm 0x1 [nranks=1] stream 0x1",
		"a: opCount 0 sendbuff a recvbuff b count 1 datatype 1 op 1 root 1 comm 0x [nranks=1] stream 0x1",
		"a: opCount 0 sendbuff a recvbuff b count 1 datatype 1 op 1 root 1 comm 0X1 [nranks=1] stream (nil) ",
		"a: opCount 0 sendbuff a recvbuff b count 1 datatype 1 op 1 root 1 comm 0x1 [nranks=] stream 0x1",
		"a: opCount 0 sendbuff a recvbuff b count 1 datatype 1 op 1 root 1 comm 0x1 [nranks=1] stream (nil)(nil)",
		"a: opCount  sendbuff a recvbuff b count 1 datatype 1 op 1 root 1 comm 0x1 [nranks=1] stream 0x1",
		"é: opCount 0 sendbuff a recvbuff b count 1 datatype 1 op 1 root 1 comm 0x1 [nranks=1] stream 0x1",
		": opCount 0", "AllReduce", "", "a: opCount 0 sendbuff \xff recvbuff \x00 count 1 datatype 1 op 1 root 1 comm 0x1 [nranks=1] stream 0x1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := collMatch(s)
		want := collRe.FindStringSubmatch(s)
		if ok != (want != nil) || ok && !slices.Equal(got[:], want) {
			t.Fatalf("collMatch(%q) = %q, %v; collRe = %q", s, got, ok, want)
		}
	})
}

// TestCollMatchFinds guards the fuzz target against a parser that matches
// nothing (and so agrees with collRe only where it matches nothing too).
func TestCollMatchFinds(t *testing.T) {
	m, ok := collMatch(collLine)
	if !ok || m[1] != "AllReduce" || m[3] != "4194304" || m[4] != "7" || m[7] != "0x55d0c0a3b2e0" || m[8] != "8" || m[9] != "0x55d0c09f8c70" {
		t.Fatalf("collMatch = %q, %v", m, ok)
	}
}

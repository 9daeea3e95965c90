//go:build ignore

// An independent check of LogLine's receipts and checkpoints with Go's reference
// implementations of signed notes (golang.org/x/mod/sumdb/note) and RFC 6962 proofs
// (golang.org/x/mod/sumdb/tlog), as Go's checksum database uses them. It shares no code with
// LogLine: if LogLine drifted from either format, this program would refuse its output.
//
//	go run verify-receipt.go receipt <verifier key> <receipt.json>
//	go run verify-receipt.go consistency <verifier key> <old note> <new note> <proof.json>
package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type checkpoint struct {
	origin string
	size   int64
	root   tlog.Hash
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "FAILED: "+format+"\n", args...)
	os.Exit(1)
}

func mustRead(path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		fail("%v", err)
	}
	return b
}

func hashOf(b64 string) tlog.Hash {
	var h tlog.Hash
	b, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(b) != tlog.HashSize {
		fail("bad hash %q", b64)
	}
	copy(h[:], b)
	return h
}

// open checks the note's signature with the verifier key and reads the tlog-checkpoint body.
func open(vkey string, msg []byte) checkpoint {
	v, err := note.NewVerifier(vkey)
	if err != nil {
		fail("verifier key: %v", err)
	}
	n, err := note.Open(msg, note.VerifierList(v))
	if err != nil {
		fail("note: %v", err)
	}
	lines := strings.SplitN(n.Text, "\n", 4)
	if len(lines) < 4 {
		fail("checkpoint body too short")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		fail("tree size: %v", err)
	}
	return checkpoint{origin: lines[0], size: size, root: hashOf(lines[2])}
}

func main() {
	if len(os.Args) < 4 {
		fail("usage: receipt <vkey> <file> | consistency <vkey> <old> <new> <proof>")
	}
	switch os.Args[1] {
	case "receipt":
		var r struct {
			JobID      string `json:"job_id"`
			Checkpoint string `json:"checkpoint"`
			Events     []struct {
				TenantSeq int64    `json:"tenant_seq"`
				Leaf      string   `json:"leaf"`
				Proof     []string `json:"proof"`
			} `json:"events"`
		}
		if err := json.Unmarshal(mustRead(os.Args[3]), &r); err != nil {
			fail("receipt: %v", err)
		}
		cp := open(os.Args[2], []byte(r.Checkpoint))
		for _, e := range r.Events {
			leaf, err := base64.StdEncoding.DecodeString(e.Leaf)
			if err != nil {
				fail("leaf %d: %v", e.TenantSeq, err)
			}
			proof := make(tlog.RecordProof, len(e.Proof))
			for i, h := range e.Proof {
				proof[i] = hashOf(h)
			}
			if err := tlog.CheckRecord(proof, cp.size, cp.root, e.TenantSeq-1, tlog.RecordHash(leaf)); err != nil {
				fail("event %d: %v", e.TenantSeq, err)
			}
		}
		fmt.Printf("ok %s %d %s %d\n", cp.origin, cp.size, r.JobID, len(r.Events))
	case "consistency":
		if len(os.Args) < 6 {
			fail("usage: consistency <vkey> <old note> <new note> <proof.json>")
		}
		old := open(os.Args[2], mustRead(os.Args[3]))
		cur := open(os.Args[2], mustRead(os.Args[4]))
		var p struct {
			Hashes []string `json:"hashes"`
		}
		if err := json.Unmarshal(mustRead(os.Args[5]), &p); err != nil {
			fail("proof: %v", err)
		}
		proof := make(tlog.TreeProof, len(p.Hashes))
		for i, h := range p.Hashes {
			proof[i] = hashOf(h)
		}
		if err := tlog.CheckTree(proof, cur.size, cur.root, old.size, old.root); err != nil {
			fail("consistency %d -> %d: %v", old.size, cur.size, err)
		}
		fmt.Printf("ok %d -> %d\n", old.size, cur.size)
	default:
		fail("unknown mode %q", os.Args[1])
	}
}

// Command c2sp-check checks a transparency log served in the C2SP formats with Go's own
// implementation of them (golang.org/x/mod/sumdb/note and sumdb/tlog), sharing no code with the
// service it checks. Built by packages/tlog/test/c2sp-interop.e2e-spec.ts and test/interop/c2sp.e2e-spec.ts from Debian's sources, nothing downloaded.
//
//	c2sp-check log <prefix> <api key or ""> <vkey> [<older checkpoint file>...]
//	    verifies the checkpoint at <prefix>/checkpoint with the verifier key, reads the tree from
//	    <prefix>/tile/..., proves and checks every entry's inclusion (the entry from its bundle),
//	    the tree's root, and the consistency of every older checkpoint with it; prints a JSON summary.
//	c2sp-check proof <file.tlog-proof> <vkey> <entry hex>
//	    checks a c2sp.org/tlog-proof@v1: the checkpoint note with the verifier key, then the entry's
//	    inclusion at the proof's index with tlog.CheckRecord; prints {"index", "size", "root"} as JSON.
//	c2sp-check sign <key name>
//	    signs the note text read from stdin with a new Ed25519 key; prints {"vkey", "note"} as JSON.
//	c2sp-check cosigned <log vkey> <witness vkey>
//	    opens the checkpoint note read from stdin with note.Open, given the log's verifier and a
//	    cosignature/v1 verifier (below) for the witness; prints the witness's name and timestamp.
package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

const height = 8

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

type client struct {
	prefix, key string
	fetched     int
}

func (c *client) get(path string) []byte {
	req, err := http.NewRequest("GET", c.prefix+"/"+path, nil)
	if err != nil {
		fail("%v", err)
	}
	if c.key != "" {
		req.Header.Set("x-api-key", c.key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fail("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		fail("GET %s: %d %s %v", path, resp.StatusCode, body, err)
	}
	c.fetched++
	return body
}

// tilePath is Go's sumdb tile path without its height element: tlog-tiles fixes the height at 8.
func tilePath(t tlog.Tile) string {
	return strings.Replace(t.Path(), fmt.Sprintf("tile/%d/", height), "tile/", 1)
}

// Height and ReadTiles make the client a tlog.TileReader: tlog.TileHashReader checks every tile
// it reads against the tree's root before any hash from it is used.
func (c *client) Height() int { return height }

func (c *client) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	data := make([][]byte, len(tiles))
	for i, t := range tiles {
		data[i] = c.get(tilePath(t))
	}
	return data, nil
}

func (c *client) SaveTiles([]tlog.Tile, [][]byte) {}

// openCheckpoint verifies a checkpoint note and parses its three lines (tlog-checkpoint).
func openCheckpoint(msg []byte, verifier note.Verifier) tlog.Tree {
	n, err := note.Open(msg, note.VerifierList(verifier))
	if err != nil {
		fail("note.Open refused the checkpoint: %v", err)
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) < 4 || lines[0] != verifier.Name() {
		fail("the checkpoint's origin line %q is not the key's name %q", lines[0], verifier.Name())
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || lines[1] != strconv.FormatInt(size, 10) {
		fail("bad tree size %q", lines[1])
	}
	root, err := tlog.ParseHash(lines[2])
	if err != nil {
		fail("bad root %q", lines[2])
	}
	return tlog.Tree{N: size, Hash: root}
}

func entries(c *client, tree tlog.Tree) [][]byte {
	var all [][]byte
	for start := int64(0); start < tree.N; start += 1 << height {
		t := tlog.Tile{H: height, L: -1, N: start >> height, W: 1 << height}
		if tree.N-start < 1<<height {
			t.W = int(tree.N - start)
		}
		bundle := c.get(strings.Replace(tilePath(t), "tile/data/", "tile/entries/", 1))
		for len(bundle) > 0 {
			if len(bundle) < 2 || len(bundle) < 2+int(binary.BigEndian.Uint16(bundle)) {
				fail("entry bundle %s is cut short", tilePath(t))
			}
			size := int(binary.BigEndian.Uint16(bundle))
			all = append(all, bundle[2:2+size])
			bundle = bundle[2+size:]
		}
	}
	if int64(len(all)) != tree.N {
		fail("the entry bundles hold %d entries, the tree %d", len(all), tree.N)
	}
	return all
}

func checkLog(args []string) {
	if len(args) < 3 {
		fail("usage: c2sp-check log <prefix> <api key> <vkey> [older checkpoint files]")
	}
	c := &client{prefix: strings.TrimSuffix(args[0], "/"), key: args[1]}
	verifier, err := note.NewVerifier(args[2])
	if err != nil {
		fail("note.NewVerifier refused the vkey: %v", err)
	}
	tree := openCheckpoint(c.get("checkpoint"), verifier)
	hashes := tlog.TileHashReader(tree, c)
	root, err := tlog.TreeHash(tree.N, hashes)
	if err != nil || root != tree.Hash {
		fail("the tiles do not give the checkpoint's root: %v", err)
	}
	for i, entry := range entries(c, tree) {
		proof, err := tlog.ProveRecord(tree.N, int64(i), hashes)
		if err != nil {
			fail("ProveRecord(%d): %v", i, err)
		}
		if err := tlog.CheckRecord(proof, tree.N, tree.Hash, int64(i), tlog.RecordHash(entry)); err != nil {
			fail("entry %d is not in the tree: %v", i, err)
		}
	}
	var older []int64
	for _, file := range args[3:] {
		msg, err := os.ReadFile(file)
		if err != nil {
			fail("%v", err)
		}
		old := openCheckpoint(msg, verifier)
		proof, err := tlog.ProveTree(tree.N, old.N, hashes)
		if err != nil {
			fail("ProveTree(%d, %d): %v", tree.N, old.N, err)
		}
		if err := tlog.CheckTree(proof, tree.N, tree.Hash, old.N, old.Hash); err != nil {
			fail("the checkpoint of size %d is not consistent with the one of size %d: %v", old.N, tree.N, err)
		}
		older = append(older, old.N)
	}
	summary, _ := json.Marshal(map[string]interface{}{"size": tree.N, "root": tree.Hash.String(), "entries_checked": tree.N, "consistent_with": older, "fetched": c.fetched})
	fmt.Println(string(summary))
}

// checkProof reads a tlog-proof as c2sp.org/tlog-proof lays it out, line by line.
func checkProof(args []string) {
	if len(args) != 3 {
		fail("usage: c2sp-check proof <file.tlog-proof> <vkey> <entry hex>")
	}
	text, err := os.ReadFile(args[0])
	if err != nil {
		fail("%v", err)
	}
	verifier, err := note.NewVerifier(args[1])
	if err != nil {
		fail("note.NewVerifier refused the vkey: %v", err)
	}
	entry, err := hex.DecodeString(args[2])
	if err != nil {
		fail("the entry is not hex: %v", err)
	}
	head, checkpoint, found := strings.Cut(string(text), "\n\n")
	if !found {
		fail("no blank line before the checkpoint")
	}
	lines := strings.Split(head, "\n")
	if lines[0] != "c2sp.org/tlog-proof@v1" {
		fail("first line %q", lines[0])
	}
	lines = lines[1:]
	if len(lines) > 0 && strings.HasPrefix(lines[0], "extra ") {
		lines = lines[1:]
	}
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "index ") {
		fail("no index line")
	}
	index, err := strconv.ParseInt(strings.TrimPrefix(lines[0], "index "), 10, 64)
	if err != nil {
		fail("bad index %q", lines[0])
	}
	var proof tlog.RecordProof
	for _, line := range lines[1:] {
		h, err := tlog.ParseHash(line)
		if err != nil {
			fail("bad proof line %q", line)
		}
		proof = append(proof, h)
	}
	tree := openCheckpoint([]byte(checkpoint), verifier)
	if err := tlog.CheckRecord(proof, tree.N, tree.Hash, index, tlog.RecordHash(entry)); err != nil {
		fail("the entry is not at index %d of the checkpoint's tree: %v", index, err)
	}
	summary, _ := json.Marshal(map[string]interface{}{"index": index, "size": tree.N, "root": tree.Hash.String()})
	fmt.Println(string(summary))
}

// cosigner verifies c2sp.org/tlog-cosignature's Ed25519 cosignature/v1 lines. x/mod's note
// knows only signature type 0x01, but note.Open takes any note.Verifier: this one derives the
// key id with type 0x04 and checks, with crypto/ed25519, the signature over "cosignature/v1",
// the timestamp line and the note's text, as the spec defines them, written from the spec alone.
type cosigner struct {
	name string
	hash uint32
	key  ed25519.PublicKey
	time uint64
}

func newCosigner(vkey string) *cosigner {
	parts := strings.SplitN(vkey, "+", 3)
	if len(parts) != 3 {
		fail("not a vkey: %s", vkey)
	}
	raw, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || len(raw) != 33 || raw[0] != 0x04 {
		fail("not an Ed25519 cosigner vkey (type 0x04): %s", vkey)
	}
	sum := sha256.Sum256(append([]byte(parts[0]+"\n"), raw...))
	c := &cosigner{name: parts[0], hash: binary.BigEndian.Uint32(sum[:4]), key: ed25519.PublicKey(raw[1:])}
	if fmt.Sprintf("%08x", c.hash) != parts[1] {
		fail("the vkey's key id %s is not SHA-256(name, 0x0A, 0x04, key)[:4] = %08x", parts[1], c.hash)
	}
	return c
}

func (c *cosigner) Name() string    { return c.name }
func (c *cosigner) KeyHash() uint32 { return c.hash }
func (c *cosigner) Verify(msg, sig []byte) bool {
	if len(sig) != 8+ed25519.SignatureSize {
		return false
	}
	c.time = binary.BigEndian.Uint64(sig[:8])
	var signed bytes.Buffer
	fmt.Fprintf(&signed, "cosignature/v1\ntime %d\n", c.time)
	signed.Write(msg)
	return ed25519.Verify(c.key, signed.Bytes(), sig[8:])
}

func main() {
	if len(os.Args) < 2 {
		fail("usage: c2sp-check log|proof|sign|cosigned ...")
	}
	switch os.Args[1] {
	case "log":
		checkLog(os.Args[2:])
	case "proof":
		checkProof(os.Args[2:])
	case "sign":
		skey, vkey, err := note.GenerateKey(rand.Reader, os.Args[2])
		if err != nil {
			fail("%v", err)
		}
		signer, err := note.NewSigner(skey)
		if err != nil {
			fail("%v", err)
		}
		text, _ := io.ReadAll(os.Stdin)
		msg, err := note.Sign(&note.Note{Text: string(text)}, signer)
		if err != nil {
			fail("note.Sign: %v", err)
		}
		out, _ := json.Marshal(map[string]string{"vkey": vkey, "note": string(msg)})
		fmt.Println(string(out))
	case "cosigned":
		if len(os.Args) != 4 {
			fail("usage: c2sp-check cosigned <log vkey> <witness vkey>")
		}
		log, err := note.NewVerifier(os.Args[2])
		if err != nil {
			fail("note.NewVerifier refused the log vkey: %v", err)
		}
		witness := newCosigner(os.Args[3])
		msg, _ := io.ReadAll(os.Stdin)
		n, err := note.Open(msg, note.VerifierList(log, witness))
		if err != nil {
			fail("note.Open refused the cosigned checkpoint: %v", err)
		}
		var signers []string
		for _, sig := range n.Sigs {
			signers = append(signers, sig.Name)
		}
		cosigned := false
		for _, name := range signers {
			cosigned = cosigned || name == witness.name
		}
		if !cosigned {
			fail("no cosignature of %s on the checkpoint", witness.name)
		}
		out, _ := json.Marshal(map[string]interface{}{"signers": signers, "cosigned_at": witness.time})
		fmt.Println(string(out))
	default:
		fail("unknown command %s", os.Args[1])
	}
}

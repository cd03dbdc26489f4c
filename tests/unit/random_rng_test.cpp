// Contracts of the generator: engine identity (PCG64 against its reference outputs, ChaCha20
// against RFC 8439's test vectors), the documented seed hash, counter-based one-way substreams,
// state save/restore of both engines, known answers pinning the first outputs, split keys drawn
// from the parent, and the refusal of an entropy stream carried across fork().
#include <gtest/gtest.h>

#include <pcg_random.hpp>
#include <sodium.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include <array>
#include <set>
#include <vector>

#include "core/error.hpp"
#include "core/random/chacha20.hpp"
#include "core/random/rng.hpp"
#include "dpcov.h"

namespace dpcov::random {
namespace {

std::vector<uint64_t> first(Rng rng, int count) {
  std::vector<uint64_t> out;
  for (int i = 0; i < count; ++i) out.push_back(rng.next_u64());
  return out;
}

// SplitMix64's output function written out independently of rng.cpp.
uint64_t splitmix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

TEST(Pcg64Engine, MatchesThePcgReferenceOutputsForSeed42Stream54) {
  // pcg64 reference values (pcg-c and pcg-cpp demos, seed 42, stream 54).
  Pcg64 engine(42U, 54U);
  const std::array<uint64_t, 6> expected = {0x86b1da1d72062b68ULL, 0x1304aa46c9853d39ULL,
                                            0xa3670e9e0dd50358ULL, 0xf9090e529a7dae00ULL,
                                            0xc85b9fd837996f2cULL, 0x606121f8e3919196ULL};
  for (uint64_t e : expected) EXPECT_EQ(engine(), e);
}

std::vector<unsigned char> from_hex(const std::string &hex) {
  std::vector<unsigned char> out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<unsigned char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

// RFC 8439 states ChaCha20 with a 32-bit counter and a 96-bit nonce; the generator uses the
// original layout (64-bit counter = state words 12-13, 64-bit nonce = words 14-15). Both fill
// the same four words, so the RFC's (counter c, nonce n0 n1 n2) is the original's
// counter c + 2^32 n0 and nonce bytes 4..11 of the RFC nonce.
std::vector<unsigned char> rfc8439_keystream(size_t bytes, uint32_t counter,
                                             const std::string &nonce_hex) {
  std::vector<unsigned char> key(32);
  for (unsigned i = 0; i < 32; ++i) key[i] = static_cast<unsigned char>(i);  // 00:01:...:1f
  const std::vector<unsigned char> nonce = from_hex(nonce_hex);
  uint64_t word0 = 0;
  for (int i = 3; i >= 0; --i) word0 = (word0 << 8) | nonce[static_cast<size_t>(i)];
  std::vector<unsigned char> out(bytes);
  ChaCha20Stream::keystream(out.data(), bytes, nonce.data() + 4, counter + (word0 << 32),
                            key.data());
  return out;
}

TEST(ChaCha20Engine, MatchesRfc8439BlockFunctionVector232) {
  // RFC 8439 section 2.3.2: key 00..1f, nonce 00:00:00:09:00:00:00:4a:00:00:00:00, counter 1.
  EXPECT_EQ(rfc8439_keystream(64, 1, "000000090000004a00000000"),
            from_hex("10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
                     "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"));
}

TEST(ChaCha20Engine, MatchesRfc8439EncryptionVector242) {
  // RFC 8439 section 2.4.2: key 00..1f, nonce 00:00:00:00:00:00:00:4a:00:00:00:00, counter 1;
  // the ciphertext is the plaintext XOR the keystream.
  const std::string plaintext =
      "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the "
      "future, sunscreen would be it.";
  const std::vector<unsigned char> stream =
      rfc8439_keystream(plaintext.size(), 1, "000000000000004a00000000");
  std::vector<unsigned char> cipher(plaintext.size());
  for (size_t i = 0; i < plaintext.size(); ++i)
    cipher[i] = static_cast<unsigned char>(static_cast<unsigned char>(plaintext[i]) ^ stream[i]);
  EXPECT_EQ(cipher,
            from_hex("6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
                     "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
                     "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
                     "5af90bbf74a35be6b40b8eedf2785e42874d"));
}

TEST(ChaCha20Engine, GeneratorWordsAreTheKeystreamFromBlockZeroLittleEndian) {
  const Rng::Key key{0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL, 0x1716151413121110ULL,
                     0x1f1e1d1c1b1a1918ULL};
  Rng rng = Rng::from_key(key, Engine::ChaCha20, false);
  std::vector<unsigned char> key_bytes(32), stream(8 * 200);
  for (unsigned i = 0; i < 32; ++i) key_bytes[i] = static_cast<unsigned char>(i);
  const unsigned char nonce[8] = {};
  ChaCha20Stream::keystream(stream.data(), stream.size(), nonce, 0, key_bytes.data());
  for (size_t w = 0; w < 200; ++w) {
    uint64_t expected = 0;
    for (int b = 7; b >= 0; --b) expected = (expected << 8) | stream[8 * w + static_cast<size_t>(b)];
    ASSERT_EQ(rng.next_u64(), expected) << "word " << w;
  }
}

TEST(RngEngines, EntropyUsesChaCha20AndSeedsUsePcg64) {
  EXPECT_EQ(Rng::from_entropy().engine(), Engine::ChaCha20);
  EXPECT_EQ(Rng::from_entropy().substream(5).engine(), Engine::ChaCha20);
  EXPECT_EQ(Rng::from_seed(1, 2).engine(), Engine::Pcg64);
  EXPECT_EQ(Rng::from_seed(1, 2).substream(5).engine(), Engine::Pcg64);
}

TEST(RngSubstream, KeyIsTheDocumentedKeyedBlake2b) {
  // crypto_kdf_derive_from_key is BLAKE2b-256 keyed by the master key, with the subkey id as
  // the little-endian salt and the context as the personalisation (libsodium's definition),
  // recomputed here through the generic BLAKE2b interface.
  const Rng parent = Rng::from_seed(99, 3);
  const uint64_t index = 0x0123456789abcdefULL;
  unsigned char master[32], salt[16] = {}, personal[16] = {}, out[32];
  for (size_t j = 0; j < 4; ++j)
    for (size_t b = 0; b < 8; ++b)
      master[8 * j + b] = static_cast<unsigned char>(parent.key()[j] >> (8 * b));
  for (size_t b = 0; b < 8; ++b) salt[b] = static_cast<unsigned char>(index >> (8 * b));
  std::memcpy(personal, "dpcovsub", 8);
  ASSERT_EQ(crypto_generichash_blake2b_salt_personal(out, 32, nullptr, 0, master, 32, salt,
                                                     personal),
            0);
  Rng::Key expected{};
  for (size_t j = 0; j < 4; ++j)
    for (size_t b = 0; b < 8; ++b) expected[j] |= static_cast<uint64_t>(out[8 * j + b]) << (8 * b);
  EXPECT_EQ(parent.substream(index).key(), expected);
}

TEST(Mix64, IsTheSplitMix64OutputFunction) {
  // First output of SplitMix64 seeded with 0 (Steele, Lea, Flood 2014 reference code).
  EXPECT_EQ(mix64(0x9e3779b97f4a7c15ULL), 0xe220a8397b1dcdafULL);
}

TEST(RngFromSeed, DerivesStateAndIncrementByTheDocumentedHash) {
  constexpr uint64_t g = 0x9e3779b97f4a7c15ULL;
  const uint64_t seed = 123456789, stream = 987654321;
  const uint64_t k0 = splitmix(seed + g);
  const uint64_t k1 = splitmix((k0 ^ stream) + 2 * g);
  const uint64_t k2 = splitmix(k1 + 3 * g);
  const uint64_t k3 = splitmix((k2 ^ k0) + 4 * g);
  using W = Pcg64::Word;
  pcg_engines::setseq_xsl_rr_128_64 reference((W(k0) << 64) | W(k1), (W(k2) << 64) | W(k3));
  Rng rng = Rng::from_seed(seed, stream);
  EXPECT_EQ(rng.key(), (Rng::Key{k0, k1, k2, k3}));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(rng.next_u64(), reference());
}

TEST(RngFromSeed, KnownAnswerFirstOutputs) {
  EXPECT_EQ(first(Rng::from_seed(20261122, 7), 4),
            (std::vector<uint64_t>{0x9ba7f5697a3f639bULL, 0xf1f16ac50d3675c8ULL,
                                   0xa5b9d8fc5856427dULL, 0xe5d50311c7d78201ULL}));
  EXPECT_EQ(first(Rng::from_seed(0, 0), 1), (std::vector<uint64_t>{0x0d994c0b848966acULL}));
}

TEST(RngSubstream, KnownAnswerFirstOutputs) {
  EXPECT_EQ(first(Rng::from_seed(20261122, 7).substream(3), 4),
            (std::vector<uint64_t>{0x510d668a54829c5bULL, 0xe3534969b45e2804ULL,
                                   0x5015b915af8a3dcfULL, 0x77cb62caee5049c3ULL}));
}

TEST(RngFromSeed, SameSeedAndStreamGiveTheSameSequence) {
  EXPECT_EQ(first(Rng::from_seed(5, 9), 32), first(Rng::from_seed(5, 9), 32));
}

TEST(RngFill, GivesTheWordsOfSingleCallsAndLeavesTheGeneratorAfterThem) {
  // Both engines, across ChaCha20's 64-word buffer edges; a fill that skipped, repeated or failed
  // to write back its engine would differ here or in the words after it.
  for (bool seeded : {true, false}) {
    for (size_t count : {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{65}, size_t{300}}) {
      Rng filled = seeded ? Rng::from_seed(3, 1) : Rng::from_entropy();
      Rng single = filled;
      filled.next_u64();
      single.next_u64();
      std::vector<uint64_t> words(count);
      filled.fill_u64(words.data(), count);
      EXPECT_EQ(words, first(single, static_cast<int>(count))) << seeded << " " << count;
      for (size_t i = 0; i < count; ++i) single.next_u64();
      EXPECT_EQ(first(filled, 3), first(single, 3)) << seeded << " " << count;
    }
  }
}

TEST(RngFromSeed, NeighbouringSeedsAndStreamsGiveDifferentStatesAndIncrements) {
  std::set<std::array<unsigned char, Rng::kStateBytes>> states;
  std::set<uint64_t> first_outputs;
  for (uint64_t seed = 0; seed < 16; ++seed)
    for (uint64_t stream = 0; stream < 16; ++stream) {
      Rng rng = Rng::from_seed(seed, stream);
      std::array<unsigned char, Rng::kStateBytes> bytes{};
      rng.save_state(bytes.data());
      // Bytes 48..63 hold the engine state, 64..79 its increment.
      std::array<unsigned char, Rng::kStateBytes> state_only{}, increment_only{};
      std::copy(bytes.begin() + 48, bytes.begin() + 64, state_only.begin());
      std::copy(bytes.begin() + 64, bytes.end(), increment_only.begin());
      EXPECT_TRUE(states.insert(state_only).second) << seed << " " << stream;
      EXPECT_TRUE(states.insert(increment_only).second) << seed << " " << stream;
      first_outputs.insert(rng.next_u64());
    }
  EXPECT_EQ(first_outputs.size(), 256U);
}

TEST(RngFromSeed, IsMarkedSeedFixedAndEntropyIsNot) {
  EXPECT_TRUE(Rng::from_seed(1).seed_fixed());
  EXPECT_FALSE(Rng::from_entropy().seed_fixed());
  EXPECT_TRUE(Rng::from_seed(1).substream(4).seed_fixed());
  EXPECT_FALSE(Rng::from_entropy().substream(4).seed_fixed());
}

TEST(RngFromEntropy, TwoGeneratorsHaveDifferentKeys) {
  // Equal 256-bit keys from the OS would mean the entropy source is broken.
  EXPECT_NE(Rng::from_entropy().key(), Rng::from_entropy().key());
}

TEST(RngSubstream, DependsOnlyOnTheKeyAndIndexNotOnThePosition) {
  Rng parent = Rng::from_seed(77, 1);
  const std::vector<uint64_t> before = first(parent.substream(12345), 16);
  for (int i = 0; i < 1000; ++i) parent.next_u64();
  EXPECT_EQ(first(parent.substream(12345), 16), before);
  // Same key reached another way: a restored copy.
  std::array<unsigned char, Rng::kStateBytes> bytes{};
  parent.save_state(bytes.data());
  EXPECT_EQ(first(Rng::restore_state(bytes.data()).substream(12345), 16), before);
}

TEST(RngSubstream, DoesNotChangeTheParent) {
  Rng a = Rng::from_seed(3), b = Rng::from_seed(3);
  (void)a.substream(9);
  EXPECT_EQ(first(a, 8), first(b, 8));
}

TEST(RngSubstream, DistinctIndicesGiveDistinctKeysAndSequences) {
  const Rng parent = Rng::from_seed(2026);
  std::set<Rng::Key> keys;
  std::set<uint64_t> outputs;
  for (uint64_t i = 0; i < 4096; ++i) {
    Rng child = parent.substream(i);
    keys.insert(child.key());
    outputs.insert(child.next_u64());
  }
  keys.insert(parent.key());
  EXPECT_EQ(keys.size(), 4097U);
  EXPECT_EQ(outputs.size(), 4096U);
}

TEST(RngSubstream, OfASubstreamIsNotTheParentOrASibling) {
  const Rng parent = Rng::from_seed(8);
  EXPECT_NE(parent.substream(1).substream(1).key(), parent.substream(1).key());
  EXPECT_NE(parent.substream(1).substream(2).key(), parent.substream(2).key());
}

TEST(RngState, SaveThenRestoreContinuesTheSameSequence) {
  Rng rng = Rng::from_seed(31337, 4);
  for (int i = 0; i < 17; ++i) rng.next_u64();
  std::array<unsigned char, Rng::kStateBytes> bytes{};
  rng.save_state(bytes.data());
  const std::vector<uint64_t> expected = first(rng, 100);
  Rng restored = Rng::restore_state(bytes.data());
  EXPECT_EQ(first(restored, 100), expected);
  EXPECT_TRUE(restored.seed_fixed());
  EXPECT_EQ(restored.key(), rng.key());
}

TEST(RngState, RoundTripsAnEntropyGeneratorAndItsFlag) {
  Rng rng = Rng::from_entropy();
  std::array<unsigned char, Rng::kStateBytes> bytes{};
  rng.save_state(bytes.data());
  Rng restored = Rng::restore_state(bytes.data());
  EXPECT_FALSE(restored.seed_fixed());
  EXPECT_EQ(restored.engine(), Engine::ChaCha20);
  EXPECT_EQ(first(restored, 10), first(rng, 10));
}

TEST(RngState, RestoresAChaCha20GeneratorAtAnyPositionAcrossBufferEdges) {
  for (int skip : {0, 1, 63, 64, 65, 200}) {
    Rng rng = Rng::from_entropy();
    for (int i = 0; i < skip; ++i) rng.next_u64();
    std::array<unsigned char, Rng::kStateBytes> bytes{};
    rng.save_state(bytes.data());
    uint64_t position = 0;
    for (int i = 0; i < 8; ++i) position |= static_cast<uint64_t>(bytes[48 + i]) << (8 * i);
    EXPECT_EQ(position, static_cast<uint64_t>(skip));
    EXPECT_EQ(first(Rng::restore_state(bytes.data()), 100), first(rng, 100)) << skip;
  }
}

TEST(RngState, ReadsAVersion1Pcg64State) {
  Rng rng = Rng::from_seed(4, 5);
  std::array<unsigned char, Rng::kStateBytes> bytes{};
  rng.save_state(bytes.data());
  bytes[4] = 1;
  EXPECT_EQ(first(Rng::restore_state(bytes.data()), 10), first(rng, 10));
}

TEST(RngState, APcg64StateRestoresAsSeededWhateverItsFlag) {
  // Only a seed makes a PCG64 generator; bytes that say otherwise (an edited flag, or a version-1
  // state without it) would record reproducible noise as drawn from an unpredictable generator.
  std::array<unsigned char, Rng::kStateBytes> bytes{};
  Rng::from_seed(4, 5).save_state(bytes.data());
  bytes[8] &= 0xfeU;  // the seed_fixed flag cleared
  EXPECT_TRUE(Rng::restore_state(bytes.data()).seed_fixed());
  bytes[4] = 1;  // version 1
  EXPECT_TRUE(Rng::restore_state(bytes.data()).seed_fixed());
  std::array<unsigned char, Rng::kStateBytes> chacha{};
  Rng::from_entropy().save_state(chacha.data());
  EXPECT_FALSE(Rng::restore_state(chacha.data()).seed_fixed());
}

TEST(RngState, RestoreRefusesBytesThatAreNotASavedState) {
  std::array<unsigned char, Rng::kStateBytes> good{};
  Rng::from_seed(1).save_state(good.data());
  auto status_of = [](std::array<unsigned char, Rng::kStateBytes> bytes) {
    try {
      Rng::restore_state(bytes.data());
    } catch (const Error &e) {
      return static_cast<dpcov_status>(e.status());
    }
    return dpcov_status{DPCOV_OK};
  };
  auto bad_magic = good;
  bad_magic[0] ^= 1U;
  auto bad_version = good;
  bad_version[4] = 3;
  auto bad_flags = good;
  bad_flags[8] = 4;
  std::array<unsigned char, Rng::kStateBytes> chacha{};
  Rng::from_entropy().save_state(chacha.data());
  auto chacha_padding = chacha;
  chacha_padding[70] = 1;
  auto even_increment = good;
  even_increment[72] &= 0xfeU;
  EXPECT_EQ(status_of(good), DPCOV_OK);
  EXPECT_EQ(status_of(bad_magic), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of(bad_version), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of(bad_flags), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of(even_increment), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of(chacha), DPCOV_OK);
  EXPECT_EQ(status_of(chacha_padding), DPCOV_E_INVALID_ARGUMENT);
}

TEST(RngState, FormatIsLittleEndianWithMagicAndVersion) {
  std::array<unsigned char, Rng::kStateBytes> bytes{};
  Rng::from_seed(1).save_state(bytes.data());
  EXPECT_EQ(bytes[0], 'D');
  EXPECT_EQ(bytes[1], 'P');
  EXPECT_EQ(bytes[2], 'C');
  EXPECT_EQ(bytes[3], 'R');
  EXPECT_EQ(bytes[4], 2);
  EXPECT_EQ(bytes[8], 1);  // seed_fixed flag, PCG64 engine
  const Rng::Key key = Rng::from_seed(1).key();
  uint64_t k0 = 0;
  for (int i = 0; i < 8; ++i) k0 |= static_cast<uint64_t>(bytes[16 + i]) << (8 * i);
  EXPECT_EQ(k0, key[0]);
}

TEST(RngSplit, DrawsTheChildsKeyFromTheParentWhichAdvances) {
  Rng parent = Rng::from_seed(8);
  Rng copy = parent;
  Rng child = parent.split();
  Rng::Key drawn;
  copy.fill_u64(drawn.data(), drawn.size());
  EXPECT_EQ(child.key(), drawn);
  EXPECT_EQ(parent.next_u64(), copy.next_u64());
  EXPECT_TRUE(child.seed_fixed());
  Rng entropy = Rng::from_entropy();
  const Rng first = entropy.split(), second = entropy.split();
  EXPECT_NE(first.key(), second.key());
  EXPECT_EQ(first.engine(), Engine::ChaCha20);
  EXPECT_FALSE(first.seed_fixed());
}

// A stream that crosses fork() would give the child the parent's next numbers: in the child an
// entropy generator made before the fork refuses to draw (status Precondition), a seeded one goes
// on with the parent's numbers (reproducible by design), and generators made in the child, or
// substreams derived there, draw.
TEST(RngFork, AnEntropyGeneratorMadeBeforeForkRefusesInTheChild) {
  Rng entropy = Rng::from_entropy();
  Rng seeded = Rng::from_seed(3);
  Rng seeded_copy = seeded;
  const uint64_t parent_next = seeded_copy.next_u64();
  int pipe_ends[2];
  ASSERT_EQ(pipe(pipe_ends), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    int code = 0;
    try {
      entropy.next_u64();
      code |= 1;  // drew: a failure
    } catch (const Error &e) {
      if (e.status() != Status::Precondition) code |= 2;
    }
    uint64_t word = 0;
    try {
      entropy.fill_u64(&word, 1);
      code |= 4;
    } catch (const Error &) {
    }
    try {
      if (seeded.next_u64() != parent_next) code |= 8;
      Rng fresh = Rng::from_entropy();
      fresh.next_u64();
      Rng derived = entropy.substream(5);
      derived.next_u64();
    } catch (const Error &) {
      code |= 16;
    }
    const ssize_t written = write(pipe_ends[1], &code, sizeof code);
    _exit(written == sizeof code ? 0 : 1);
  }
  int code = -1;
  ASSERT_EQ(read(pipe_ends[0], &code, sizeof code), static_cast<ssize_t>(sizeof code));
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  close(pipe_ends[0]);
  close(pipe_ends[1]);
  EXPECT_EQ(code, 0) << "bits: 1 drew, 2 wrong status, 4 fill drew, 8 seeded changed, "
                        "16 a generator made in the child refused";
  // The parent's generators are unaffected.
  EXPECT_NO_THROW(entropy.next_u64());
}

}  // namespace
}  // namespace dpcov::random

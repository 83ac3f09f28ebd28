import EditorSpelling
import Testing

@Suite struct ConcurrentCheckingTests {
  static let words = [
    "the", "teh", "receive", "recieve", "editor", "edtior", "Monday", "monday", "don\u{2019}t",
    "dont", "3.14", "", "spelling", "speling", "HELLO", "HELO", "quick", "qiuck", "brown",
    "bronw", "definitely", "definately", "separate", "seperate", "occurrence", "occurence",
  ]

  @Test func concurrentChecksAgreeWithSerialOnes() async throws {
    let checker = try englishChecker()
    let serial = Self.words.map { checker.isCorrect($0) }
    #expect(serial.contains(true) && serial.contains(false))
    let results = await withTaskGroup(of: [Bool].self, returning: [[Bool]].self) { group in
      for task in 0..<8 {
        group.addTask {
          var answers = Array(repeating: false, count: Self.words.count)
          for round in 0..<20 {
            for offset in Self.words.indices {
              let index = (offset + task * 7 + round) % Self.words.count
              answers[index] = checker.isCorrect(Self.words[index])
            }
          }
          if task.isMultiple(of: 2) {
            _ = checker.suggestions(for: Self.words[task])
          }
          return answers
        }
      }
      var all: [[Bool]] = []
      for await answers in group { all.append(answers) }
      return all
    }
    #expect(results.count == 8)
    for answers in results { #expect(answers == serial) }
  }

  @Test func concurrentBatchesAndCheckers() async throws {
    let checker = try englishChecker()
    let serial = Self.words.indices.filter { !checker.isCorrect(Self.words[$0]) }
    let results = await withTaskGroup(of: ([Int], [Int]).self, returning: [([Int], [Int])].self) {
      group in
      for _ in 0..<4 {
        group.addTask {
          let own = (try? SpellChecker(language: "en_US"))?.misspellings(in: Self.words) ?? []
          return (checker.misspellings(in: Self.words), own)
        }
      }
      var all: [([Int], [Int])] = []
      for await result in group { all.append(result) }
      return all
    }
    for (shared, own) in results {
      #expect(shared == serial)
      #expect(own == serial)
    }
  }
}

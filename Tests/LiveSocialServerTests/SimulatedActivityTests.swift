import LiveRepository
import LiveSocial
import LiveSocialServer
import Testing

@Suite(.timeLimit(.minutes(3))) struct SimulatedActivityTests {
    private func actions(seed: UInt64, steps: Int) async throws -> (actions: [String], sequence: Int64, channels: [Channel]) {
        let fixture = try await ServerFixture.seeded()
        let activity = SimulatedActivity(server: fixture.server, seed: seed)
        var actions: [String] = []
        for _ in 0..<steps {
            let action = try #require(try await activity.step())
            actions.append("\(action.userId): \(action.mutation)")
        }
        return (actions, try await fixture.server.latestSequence(), try await fixture.server.records(SocialQuery.channels()))
    }

    @Test func theSameSeedGivesTheSameActivity() async throws {
        let first = try await actions(seed: 42, steps: 30)
        let second = try await actions(seed: 42, steps: 30)
        #expect(first.actions == second.actions)
        #expect(first.sequence == second.sequence)
        #expect(first.channels == second.channels)
        let other = try await actions(seed: 43, steps: 30)
        #expect(other.actions != first.actions)
    }

    @Test func stepsWriteRealChanges() async throws {
        let fixture = try await ServerFixture.seeded()
        let before = try await fixture.server.latestSequence()
        let activity = SimulatedActivity(server: fixture.server, seed: 1, userIds: ["grace", "linus"])
        for _ in 0..<10 {
            let action = try #require(try await activity.step())
            #expect(["grace", "linus"].contains(action.userId))
        }
        #expect(try await fixture.server.latestSequence() > before)
        #expect(await activity.actionCount == 10)
    }

    @Test func runActsOncePerIntervalOfClockTime() async throws {
        let fixture = try await ServerFixture.seeded()
        let activity = SimulatedActivity(server: fixture.server, seed: 7, interval: .seconds(2))
        let before = try await fixture.server.latestSequence()
        let running = Task { await activity.run() }
        await fixture.clock.waitForSleepers(1)
        #expect(await activity.actionCount == 0)
        fixture.clock.advance(by: .seconds(2))
        await fixture.clock.waitForSleepers(1)
        #expect(await activity.actionCount == 1)
        fixture.clock.advance(by: .seconds(2))
        await fixture.clock.waitForSleepers(1)
        #expect(await activity.actionCount == 2)
        #expect(try await fixture.server.latestSequence() > before)
        running.cancel()
        await running.value
        #expect(fixture.clock.sleeperCount == 0)
    }

    @Test func anEmptyServerHasNobodyToAct() async throws {
        let fixture = try ServerFixture()
        let activity = SimulatedActivity(server: fixture.server, seed: 1)
        #expect(try await activity.step() == nil)
    }
}

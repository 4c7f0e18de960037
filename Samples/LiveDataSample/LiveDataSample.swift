import Foundation
import SampleApp
import SampleTerminal

/// The terminal MVVM sample: `swift run -c release LiveDataSample`.
@main
enum LiveDataSample {
    static let usage = """
        usage: LiveDataSample [options]

        A chat and social app over an embedded server whose other users chat, post, react and
        follow while you watch. Type ? in the app for its commands.

        options:
          --data <folder>       where the cache, the server's data and the read markers live
                                (default: $LIVEDATA_SAMPLE_DATA, else a per-user folder)
          --user <id>           sign in as ada, alan, grace, linus, margaret or tim (default: ada)
          --demo                play a short scripted session by itself and exit (0 when every
                                step finished); in a fresh temporary folder unless --data is given
          --plain               print plain lines even on a terminal
          --latency <ms>        how long the server takes to answer (default: 300)
          --activity <seconds>  time between the other users' actions; 0 for none (default: 4)
          --reset               start over: delete the data folder's files first
          --help                show this help
        """

    @MainActor
    static func main() async {
        let options: Options
        do {
            options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            fail("\(error)\n\n\(usage)", code: 64)
        }
        if options.showsHelp {
            print(usage)
            return
        }
        let configuration = options.configuration()
        if options.reset { resetData(in: configuration) }
        let environment: SampleEnvironment
        do {
            environment = try await SampleEnvironment.open(configuration)
        } catch {
            fail("\(error)", code: 1)
        }
        let interactive = !options.plain && Terminal.isOutputInteractive && Terminal.isInputInteractive && !options.demo
        let fullScreen = !options.plain && Terminal.isOutputInteractive
        let rawSettings = interactive ? Terminal.enableRawMode() : nil
        let output: any ScreenOutput = fullScreen ? ANSIScreen() : PlainScreen()
        let app = TerminalApp(environment: environment, output: output, echoesCommands: !fullScreen)
        let resizes = redrawOnResize(app)
        app.start()
        var code: Int32 = 0
        if options.demo {
            code = await app.play(DemoStep.tour, pause: fullScreen ? .milliseconds(900) : .zero) ? 0 : 1
        } else {
            await app.run(InputReader.events(keys: rawSettings != nil))
        }
        resizes.cancel()
        app.shutdown()
        if let rawSettings { Terminal.restore(rawSettings) }
        if options.demo && options.dataFolder == nil {
            try? FileManager.default.removeItem(at: configuration.dataFolder)
        }
        if !fullScreen || options.demo { print(code == 0 ? "bye" : "the demo did not finish") }
        exit(code)
    }

    /// Redraws the app whenever the terminal's window changes size.
    @MainActor
    static func redrawOnResize(_ app: TerminalApp) -> any DispatchSourceSignal {
        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        source.setEventHandler { MainActor.assumeIsolated { app.setNeedsDisplay() } }
        source.resume()
        return source
    }

    static func resetData(in configuration: SampleConfiguration) {
        for url in [configuration.cacheURL, configuration.serverURL, configuration.readMarkersURL] {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: url.path + suffix)
            }
        }
    }

    static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data("LiveDataSample: \(message)\n".utf8))
        exit(code)
    }
}

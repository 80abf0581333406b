#include "tools/board/board.h"

#include <utility>

#include "graph/core/errors.h"
#include "tools/board/endpoints.h"
#include "tools/board/page.h"
#include "tools/cli/json_writer.h"

namespace sluice {
namespace board {
namespace {

Response Json(std::string body) {
  Response response;
  response.body = std::move(body);
  return response;
}

Response ErrorResponse(const absl::Status& status) {
  cli::JsonWriter json;
  json.BeginObject().Key("error").String(status.message()).EndObject();
  Response response;
  response.status = HttpStatus(status);
  response.body = json.str();
  return response;
}

}  // namespace

int HttpStatus(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kOk:
      return 200;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
      return 400;
    case absl::StatusCode::kNotFound:
      return 404;
    default:
      return 500;
  }
}

absl::StatusOr<std::unique_ptr<Board>> Board::Open(const std::string& logdir) {
  ASSIGN_OR_RETURN(LogFolder folder, LogFolder::Open(logdir));
  return std::unique_ptr<Board>(new Board(std::move(folder)));
}

Response Board::Handle(absl::string_view path, const Query& query) {
  absl::StatusOr<Response> response = Route(path, query);
  return response.ok() ? *std::move(response) : ErrorResponse(response.status());
}

absl::StatusOr<Response> Board::Route(absl::string_view path, const Query& query) {
  if (path == "/" || path == "/index.html") {
    Response page;
    page.content_type = "text/html; charset=utf-8";
    page.body = std::string(PageHtml());
    return page;
  }
  if (path == "/api/runs") return Json(RunsJson(folder_.ListRuns()));
  if (path == "/api/tags") {
    ASSIGN_OR_RETURN(std::string body, Tags(query));
    return Json(std::move(body));
  }
  const bool tag_endpoint = path == "/api/steps" || path == "/api/scalars" ||
                            path == "/api/statistics" || path == "/api/slice" ||
                            path == "/api/histograms" || path == "/api/image";
  if (!tag_endpoint) return errors::NotFound("nothing at ", path);
  ASSIGN_OR_RETURN(TagSnapshot snapshot, Snapshot(query));
  if (path == "/api/steps") return Json(StepsJson(snapshot));
  if (path == "/api/image") {
    ASSIGN_OR_RETURN(EncodedImage image, ImageOf(snapshot, query));
    Response response;
    response.content_type = std::move(image.content_type);
    response.body = std::move(image.bytes);
    return response;
  }
  absl::StatusOr<std::string> body;
  if (path == "/api/scalars") body = ScalarsJson(snapshot);
  if (path == "/api/statistics") body = StatisticsJson(snapshot, query);
  if (path == "/api/slice") body = SliceJson(snapshot, query);
  if (path == "/api/histograms") body = HistogramsJson(snapshot, query);
  RETURN_IF_ERROR(body.status());
  return Json(*std::move(body));
}

absl::StatusOr<RunIndex*> Board::RefreshedRun(const std::string& name) {
  ASSIGN_OR_RETURN(RunFiles files, folder_.FindRun(name));
  std::unique_ptr<RunIndex>& index = runs_[files.dir];
  if (index == nullptr) index = std::make_unique<RunIndex>();
  index->Refresh(files, folder_);
  return index.get();
}

absl::StatusOr<std::string> Board::Tags(const Query& query) {
  ASSIGN_OR_RETURN(std::string run, RequiredParam(query, "run"));
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(RunIndex * index, RefreshedRun(run));
  return TagsJson(run, *index);
}

absl::StatusOr<TagSnapshot> Board::Snapshot(const Query& query) {
  ASSIGN_OR_RETURN(std::string run, RequiredParam(query, "run"));
  ASSIGN_OR_RETURN(std::string tag, RequiredParam(query, "tag"));
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(RunIndex * index, RefreshedRun(run));
  return TakeSnapshot(run, *index, tag, folder_);
}

}  // namespace board
}  // namespace sluice
